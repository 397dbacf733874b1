package dev.muster.bridge.airflow.api;

/** Makes the {@link AirflowApi} that the settings' API version speaks, with retries. */
public final class AirflowApis {
    private AirflowApis() {}

    public static AirflowApi connect(AirflowSettings settings) {
        AirflowApi api = switch (settings.apiVersion()) {
            case V1 -> new AirflowV1Api(settings);
            case V2 -> new AirflowV2Api(settings);
        };
        return new RetryingAirflowApi(api, settings);
    }
}
