package dev.muster.sim.metrics;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.QueueName;

/**
 * One workload job after the run.
 *
 * @param completedMillis -1 when it did not complete
 * @param startedMillis when its first gang first ran as a whole; -1 if never
 * @param gpus the most GPUs any one of its gangs needs
 */
public record JobRecord(String id, QueueName queue, long arrivalMillis, long startedMillis, long completedMillis, double gpus, double gpuSeconds) {
    public JobRecord {
        requireNonNull(id, "id is null");
        requireNonNull(queue, "queue is null");
    }

    public boolean completed() {
        return completedMillis >= 0;
    }

    public double jctSeconds() {
        return (completedMillis - arrivalMillis) / 1000.0;
    }
}
