package dev.muster.sim.workload;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.Resources;

/**
 * One gang: {@code pods} identical pods that become one PodGroup with {@code minMember = pods},
 * and run together for {@code durationMillis} once all of them run.
 *
 * @param name unique within its job; the node id in the job's graph
 */
public record GangSpec(String name, int pods, Resources perPod, long durationMillis) {
    public GangSpec {
        requireNonNull(name, "name is null");
        checkArgument(pods > 0, "gang %s: pods must be positive: %s", name, pods);
        requireNonNull(perPod, "perPod is null");
        checkArgument(durationMillis > 0, "gang %s: duration must be positive: %s", name, durationMillis);
    }

    public Resources total() {
        return perPod.multiply(pods);
    }

    /** GPUs of the whole gang (not milli-units). */
    public double gpus() {
        return total().get(Resources.GPU) / 1000.0;
    }
}
