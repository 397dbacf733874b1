package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.bridge.kubeflow.TrainingJobPlan.MirrorPodGroup;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides, from what the API server shows, what the bridge writes for one training job. Pure: the same
 * inputs give the same plan, the clock is an argument.
 *
 * <ul>
 *   <li>Bad input (the reader's problems, or a queue that does not exist): the problems, nothing else; the
 *       writer suspends the job, so the operator creates nothing and removes what it made.
 *   <li>A scheduler-plugins PodGroup (the operator's path for any gang scheduler but {@code volcano}): a
 *       Volcano PodGroup of the same name with the job's queue, which the engine reads in its place; for
 *       an elastic PyTorchJob, its gang at {@code elasticPolicy.minReplicas} with that gang's resources, so that it
 *       starts at its minimum and its other pods are placed as room allows.
 *   <li>A gang not placed yet: Muster's {@code Unschedulable} message from the Volcano PodGroup once all of
 *       the gang's pods exist, or, once the
 *       PodGroup has waited {@link #ADMISSION_GRACE} in phase Pending with no pods, that it waits for
 *       admission; and when {@code scheduleTimeoutSeconds} has passed since the PodGroup was made, the
 *       timeout.
 *   <li>A PS/Worker TFJob whose Volcano PodGroup has no task topology: {@link TaskTopologyDefault}'s.
 * </ul>
 */
public final class TrainingJobPlanner {
    /** How Muster's reason begins while a gang has fewer pods than its minMember (the gang plugin's words). */
    static final String TOO_FEW_PODS = "not enough pods for the gang";
    /** How long a PodGroup may wait for admission before the job is told so (Muster admits within a cycle or two). */
    public static final Duration ADMISSION_GRACE = Duration.ofSeconds(5);
    /** The queue the operator writes when the job names none, which Muster's runtime creates. */
    public static final String DEFAULT_QUEUE = "default";

    private TrainingJobPlanner() {}

    /** The pods of the job that the bridge counts: how many exist and how many are bound to a node. */
    public record JobPods(int existing, int bound) {}

    /**
     * The plan for one job.
     *
     * @param elasticGangResources what an elastic job's gang at its minimum needs ({@link GangResources}), for the mirror's
     *     {@code minResources}; the operator's PodGroup counts every replica, the mirror's gang is the minimum
     */
    public static TrainingJobPlan plan(TrainingJobReader.Read read, ImmutableSet<String> queues, Optional<PodGroupView> volcano,
            Optional<PodGroupView> coscheduling, JobPods pods, ObjectNode elasticGangResources, Instant now) {
        requireNonNull(read, "read is null");
        requireNonNull(queues, "queues is null");
        requireNonNull(volcano, "volcano is null");
        requireNonNull(coscheduling, "coscheduling is null");
        requireNonNull(elasticGangResources, "elasticGangResources is null");
        requireNonNull(now, "now is null");
        TrainingJob job = read.job();
        if (job.finished()) {
            return TrainingJobPlan.NOTHING;
        }
        List<FieldProblem> problems = new ArrayList<>(read.problems());
        String queue = job.schedulingPolicy().queue().orElse(DEFAULT_QUEUE);
        if (!queue.equals(DEFAULT_QUEUE) && !queues.contains(queue)) {
            problems.add(new FieldProblem("spec.runPolicy.schedulingPolicy.queue", "queue '" + queue + "' does not exist (known: "
                    + String.join(", ", ImmutableSet.<String>builder().add(DEFAULT_QUEUE).addAll(queues).build()) + ")"));
        }
        if (!problems.isEmpty()) {
            return new TrainingJobPlan(ImmutableList.copyOf(problems), false, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        }
        boolean resume = job.suspended() && job.suspendedByMuster().isPresent();
        if (job.suspended()) {
            return new TrainingJobPlan(ImmutableList.of(), resume, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        }
        Optional<MirrorPodGroup> mirror = coscheduling.map(group -> job.elasticMinimum()
                .map(minimum -> new MirrorPodGroup(group.name(), minimum, queue, job.schedulingPolicy().priorityClass(),
                        elasticGangResources.deepCopy()))
                .orElseGet(() -> new MirrorPodGroup(group.name(), group.minMember(), queue, job.schedulingPolicy().priorityClass(),
                        group.minResources())));
        ImmutableMap<String, String> topology = TaskTopologyDefault.annotations(job, volcano);
        int minMember = volcano.or(() -> coscheduling).map(PodGroupView::minMember).orElse(job.minMember());
        if (pods.bound() >= minMember && minMember > 0) {
            return new TrainingJobPlan(ImmutableList.of(), false, mirror, Optional.empty(), Optional.empty(), Optional.empty(), topology);
        }
        Optional<Duration> recheck = Optional.empty();
        Optional<String> pending = Optional.empty();
        if (volcano.isPresent() && volcano.get().unschedulable().isPresent() && pods.existing() >= minMember
                && !volcano.get().unschedulable().get().startsWith(TOO_FEW_PODS)) {
            // fewer pods than the gang means the operator is still making them: Muster's reason says only that, and
            // the PodGroup's status may still say so a cycle after the last pod appeared
            pending = Optional.of("Muster: " + volcano.get().unschedulable().get());
        } else if (volcano.isPresent() && pods.existing() == 0 && isPending(volcano.get().phase())) {
            Instant shown = volcano.get().created().plus(ADMISSION_GRACE);
            if (now.isBefore(shown)) {
                recheck = Optional.of(Duration.between(now, shown));
            } else {
                pending = Optional.of("Muster has not admitted PodGroup " + volcano.get().name() + " to queue " + queue
                        + " yet (phase Pending), so its pods are not created yet: the training operator, or native mode, waits for admission");
            }
        }
        Optional<String> timedOut = Optional.empty();
        Optional<Integer> timeout = job.schedulingPolicy().scheduleTimeoutSeconds();
        if (timeout.isPresent()) {
            Instant start = coscheduling.or(() -> volcano).map(PodGroupView::created).orElse(job.created());
            Instant deadline = start.plusSeconds(timeout.get());
            if (now.isBefore(deadline)) {
                Duration left = Duration.between(now, deadline);
                recheck = Optional.of(recheck.filter(earlier -> earlier.compareTo(left) < 0).orElse(left));
            } else {
                timedOut = Optional.of("gang of " + minMember + " not placed within scheduleTimeoutSeconds=" + timeout.get() + " ("
                        + pods.bound() + " of " + pods.existing() + " pods bound); Muster holds nothing for it and keeps trying"
                        + pending.map(reason -> ": " + reason).orElse(""));
            }
        }
        return new TrainingJobPlan(ImmutableList.of(), false, mirror, pending, timedOut, recheck, topology);
    }

    private static boolean isPending(String phase) {
        return phase.isEmpty() || phase.equals("Pending");
    }
}
