package dev.muster.bridge.airflow.api;

import com.google.common.collect.ImmutableList;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Records what {@link AirflowAvailability} reports, in order. */
public final class TestingReporter implements AirflowAvailability.Reporter {
    private final List<String> reports = new ArrayList<>();

    @Override
    public synchronized void unavailable(AirflowApiException failure) {
        reports.add("unavailable: " + failure.getMessage());
    }

    @Override
    public synchronized void recovered(Duration downFor) {
        reports.add("recovered after " + downFor);
    }

    public synchronized List<String> reports() {
        return ImmutableList.copyOf(reports);
    }
}
