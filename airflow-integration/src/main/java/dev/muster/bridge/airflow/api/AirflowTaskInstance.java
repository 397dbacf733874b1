package dev.muster.bridge.airflow.api;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * One task instance of a run: a task at one map index ({@code -1} when not mapped), its current try
 * number, its state ({@code none} when Airflow has not set one yet) and, once it ran, its duration.
 */
public record AirflowTaskInstance(
        String taskId, int mapIndex, int tryNumber, String state, Optional<Duration> duration, Optional<String> pool) {
    public static final int NOT_MAPPED = -1;

    public AirflowTaskInstance {
        requireNonNull(taskId, "taskId is null");
        requireNonNull(state, "state is null");
        requireNonNull(duration, "duration is null");
        requireNonNull(pool, "pool is null");
    }
}
