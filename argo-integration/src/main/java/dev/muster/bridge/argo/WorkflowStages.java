package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.Resources;
import java.util.Comparator;
import java.util.Optional;

/**
 * The stages of a workflow's entrypoint, what the widest needs, and what could not be counted.
 *
 * @param stages in the order they run; a step or task that calls a steps or DAG template counts that
 *     template's widest stage
 * @param need what admission asks of the queue: per resource, the most any stage asks for, so every
 *     stage fits once it is admitted (for stages that ask for the same resources, the widest stage's request)
 * @param uncounted what is counted as less than it may be, e.g. {@code main[0].shards: withParam counts as one};
 *     the gang of such a fan-out still waits for room whole
 */
public record WorkflowStages(ImmutableList<StageDemand> stages, Resources need, ImmutableList<String> uncounted) {
    public WorkflowStages {
        stages = ImmutableList.copyOf(stages);
        requireNonNull(need, "need is null");
        uncounted = ImmutableList.copyOf(uncounted);
    }

    /** The stage with the most pods, the larger request on a tie, the first on a tie of both. */
    public Optional<StageDemand> widest() {
        return stages.stream().max(Comparator.comparingInt(StageDemand::pods)
                .thenComparing(StageDemand::request, (left, right) -> Double.compare(left.milliCpu(), right.milliCpu()))
                .thenComparing(stage -> -stages.indexOf(stage)));
    }

    /** {@code widest stage main[0] needs cpu 9 (3 pods)}, with what was not counted. */
    public String describe() {
        String widest = widest().map(stage -> "widest stage " + stage.describe()).orElse("no stage");
        return uncounted.isEmpty() ? widest : widest + " (not counted: " + String.join("; ", uncounted) + ")";
    }
}
