package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.time.Duration;
import java.util.Optional;

/**
 * What the bridge decided for one training job, applied by {@link TrainingJobWriter}.
 *
 * @param problems bad input: each gets an Event, all together a condition, and the job is suspended
 * @param resume the job was suspended by the bridge and its input is good now
 * @param mirror the Volcano PodGroup to write beside the operator's scheduler-plugins one
 * @param pending Muster's reason the gang waits, for an Event on the job
 * @param timedOut the gang was not placed within {@code scheduleTimeoutSeconds}: the Event's message
 * @param recheckAfter when to look again though nothing changes (a timeout or a grace period ends)
 * @param podGroupAnnotations annotations to add to the job's Volcano PodGroup (the default task topology)
 */
public record TrainingJobPlan(
        ImmutableList<FieldProblem> problems,
        boolean resume,
        Optional<MirrorPodGroup> mirror,
        Optional<String> pending,
        Optional<String> timedOut,
        Optional<Duration> recheckAfter,
        ImmutableMap<String, String> podGroupAnnotations) {
    /** Nothing to do. */
    public static final TrainingJobPlan NOTHING = new TrainingJobPlan(ImmutableList.of(), false, Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty());

    public TrainingJobPlan {
        problems = ImmutableList.copyOf(problems);
        requireNonNull(mirror, "mirror is null");
        requireNonNull(pending, "pending is null");
        requireNonNull(timedOut, "timedOut is null");
        requireNonNull(recheckAfter, "recheckAfter is null");
        podGroupAnnotations = ImmutableMap.copyOf(podGroupAnnotations);
    }

    /** A plan that adds no PodGroup annotation. */
    public TrainingJobPlan(ImmutableList<FieldProblem> problems, boolean resume, Optional<MirrorPodGroup> mirror, Optional<String> pending,
            Optional<String> timedOut, Optional<Duration> recheckAfter) {
        this(problems, resume, mirror, pending, timedOut, recheckAfter, ImmutableMap.of());
    }

    /** The Volcano PodGroup the engine reads in place of a scheduler-plugins one of the same name. */
    public record MirrorPodGroup(String name, int minMember, String queue, Optional<String> priorityClassName,
            JsonNode minResources) {
        public MirrorPodGroup {
            requireNonNull(name, "name is null");
            requireNonNull(queue, "queue is null");
            requireNonNull(priorityClassName, "priorityClassName is null");
            requireNonNull(minResources, "minResources is null");
        }
    }
}
