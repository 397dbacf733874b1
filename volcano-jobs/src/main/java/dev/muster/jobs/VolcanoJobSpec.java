package dev.muster.jobs;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A Volcano Job's {@code spec}, with the defaults Volcano's admission webhook fills in already applied
 * ({@code queue: default}, {@code maxRetry: 3}, {@code minAvailable}: the sum of the tasks' minimums).
 *
 * @param plugins job plugin name to its arguments, in manifest order ({@code svc: ["--publish-not-ready-addresses"]})
 * @param runningEstimate how long the job is expected to run; the {@code dag} plugin's duration estimate
 */
public record VolcanoJobSpec(
        String schedulerName,
        int minAvailable,
        String queue,
        int maxRetry,
        OptionalInt ttlSecondsAfterFinished,
        String priorityClassName,
        OptionalInt minSuccess,
        ImmutableList<TaskSpec> tasks,
        ImmutableList<LifecyclePolicy> policies,
        ImmutableMap<String, ImmutableList<String>> plugins,
        Optional<Duration> runningEstimate) {
    public static final String DEFAULT_QUEUE = "default";
    public static final int DEFAULT_MAX_RETRY = 3;

    public VolcanoJobSpec {
        requireNonNull(schedulerName, "schedulerName is null");
        checkArgument(minAvailable >= 0, "minAvailable is negative: %s", minAvailable);
        requireNonNull(queue, "queue is null");
        requireNonNull(ttlSecondsAfterFinished, "ttlSecondsAfterFinished is null");
        requireNonNull(priorityClassName, "priorityClassName is null");
        requireNonNull(minSuccess, "minSuccess is null");
        tasks = ImmutableList.copyOf(tasks);
        policies = ImmutableList.copyOf(policies);
        plugins = ImmutableMap.copyOf(plugins);
        requireNonNull(runningEstimate, "runningEstimate is null");
    }

    /** The sum of every task's replicas. */
    public int totalReplicas() {
        return tasks.stream().mapToInt(TaskSpec::replicas).sum();
    }

    /** The sum of every task's gang minimum (minAvailable, else replicas). */
    public int totalTaskMinAvailable() {
        return tasks.stream().mapToInt(TaskSpec::minMember).sum();
    }

    public Optional<TaskSpec> task(String name) {
        return tasks.stream().filter(task -> task.name().equals(name)).findFirst();
    }
}
