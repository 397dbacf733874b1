package dev.muster.bridge.airflow.api;

import java.util.Locale;

/** Which REST API an Airflow serves: v1 (Airflow 2, {@code /api/v1}) or v2 (Airflow 3, {@code /api/v2}). */
public enum AirflowApiVersion {
    V1,
    V2;

    /** {@code v1} or {@code v2}, in any case; anything else names the setting and the bad value. */
    static AirflowApiVersion parse(String setting, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "v1" -> V1;
            case "v2" -> V2;
            default -> throw new IllegalArgumentException(String.format(
                    "%s: unknown Airflow REST API version '%s' (v2 for Airflow 3, v1 for Airflow 2)", setting, value));
        };
    }
}
