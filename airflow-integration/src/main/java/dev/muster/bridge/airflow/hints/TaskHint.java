package dev.muster.bridge.airflow.hints;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What Muster should know about one task of one DAG run: the remaining critical path from its start
 * (its own estimate plus its slowest chain of downstream tasks), its priority weight (Airflow's
 * effective {@code priority_weight}, see {@link PriorityWeights}), the Muster
 * queue its pool or queue maps to, and for a mapped task ({@code expand}) how many map indexes this run
 * has: a mapped task whose pods ask for it ({@code muster.dev/gang: "true"}) is one gang of that many.
 */
public record TaskHint(
        String dag,
        String taskId,
        Duration remainingPath,
        PriorityWeight priorityWeight,
        Optional<String> queue,
        boolean mapped,
        int mapCount,
        List<String> waitingOn) {
    public TaskHint {
        requireNonNull(dag, "dag is null");
        requireNonNull(taskId, "taskId is null");
        requireNonNull(remainingPath, "remainingPath is null");
        checkArgument(!remainingPath.isNegative(), "task %s: negative remaining path %s", taskId, remainingPath);
        requireNonNull(priorityWeight, "priorityWeight is null");
        requireNonNull(queue, "queue is null");
        checkArgument(mapCount >= 1, "task %s: mapCount must be positive: %s", taskId, mapCount);
        waitingOn = ImmutableList.copyOf(waitingOn);
    }
}
