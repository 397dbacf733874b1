package dev.muster.bridge.airflow;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import dev.muster.bridge.airflow.api.AirflowSettings;
import dev.muster.bridge.airflow.hints.HintSettings;
import java.time.Duration;

/** The bridge's settings: how to reach the API, how to make hints, how often to poll. */
public record AirflowBridgeSettings(AirflowSettings api, HintSettings hints, Duration pollPeriod) {
    public AirflowBridgeSettings {
        requireNonNull(api, "api is null");
        requireNonNull(hints, "hints is null");
        requireNonNull(pollPeriod, "pollPeriod is null");
        checkArgument(!pollPeriod.isNegative() && !pollPeriod.isZero(), "airflow.poll-period must be positive: %s", pollPeriod);
    }
}
