package dev.muster.bridge.airflow.api;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/** One run of a DAG: its id ({@code dag_run_id}, the pods' {@code run_id}), state and times. */
public record AirflowDagRun(String dagId, String runId, String state, Optional<Instant> startDate, Optional<Instant> endDate) {
    public AirflowDagRun {
        requireNonNull(dagId, "dagId is null");
        requireNonNull(runId, "runId is null");
        requireNonNull(state, "state is null");
        requireNonNull(startDate, "startDate is null");
        requireNonNull(endDate, "endDate is null");
    }
}
