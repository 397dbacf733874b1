package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.bridge.spark.ConfMinResources;
import dev.muster.bridge.spark.ConfProblem;
import dev.muster.bridge.spark.operator.SparkApplicationPlan.PodGroupSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Decides, from what the API server shows, what the bridge writes for one SparkApplication. Pure.
 *
 * <ul>
 *   <li>Bad input (a field of the wrong type, a conf the arithmetic cannot use, a queue that does not
 *       exist): the problems, nothing else.
 *   <li>The operator's Volcano PodGroup ({@code batchScheduler: volcano}): its {@code minResources}
 *       replaced by what the driver and the executors the application starts with will request (the
 *       operator counts one executor of {@code executor.instances} without dynamic allocation and no
 *       memory overhead), unless the user set {@code batchSchedulerOptions.resources}; queue and priority
 *       class from {@code batchSchedulerOptions}; Muster's executor annotations. The operator sets these
 *       only when it creates the group, and afterwards changes only its {@code minMember}, so what the
 *       bridge writes stays.
 *   <li>The operator's scheduler-plugins PodGroup (a {@code batchScheduler} in its
 *       {@code --kube-scheduler-names}), which has no queue and on which Muster writes no status: a Volcano
 *       PodGroup of the same name with the same fields, which the engine reads in its place (the pods'
 *       scheduler-plugins label names it).
 *   <li>Muster's {@code Unschedulable} message on the Volcano PodGroup, as the pending reason.
 * </ul>
 */
public final class SparkApplicationPlanner {
    /** The queue Muster's runtime creates, used when {@code batchSchedulerOptions.queue} names none. */
    public static final String DEFAULT_QUEUE = "default";

    private SparkApplicationPlanner() {}

    public static SparkApplicationPlan plan(SparkApplicationReader.Read read, ImmutableSet<String> queues, Optional<PodGroupView> volcano,
            Optional<PodGroupView> coscheduling) {
        requireNonNull(read, "read is null");
        requireNonNull(queues, "queues is null");
        requireNonNull(volcano, "volcano is null");
        requireNonNull(coscheduling, "coscheduling is null");
        SparkApplication application = read.application();
        if (application.finished() || (volcano.isEmpty() && coscheduling.isEmpty())) {
            // no batch scheduler: the operator made no group, and the driver is scheduled as a pod alone
            return SparkApplicationPlan.NOTHING;
        }
        List<FieldProblem> problems = new ArrayList<>(read.problems());
        Optional<ConfMinResources> resources = Optional.empty();
        try {
            resources = Optional.of(ConfMinResources.compute(application.confs(), application.nonJvm(), application.python(),
                    application.clusterMode()));
        } catch (ConfProblem e) {
            problems.add(new FieldProblem(application.fieldOf(e.key()), e.getMessage()));
        }
        Optional<String> queue = application.queue();
        if (queue.isPresent() && !queue.get().equals(DEFAULT_QUEUE) && !queues.contains(queue.get())) {
            problems.add(new FieldProblem("spec.batchSchedulerOptions.queue", "queue '" + queue.get() + "' does not exist (known: "
                    + String.join(", ", ImmutableSet.<String>builder().add(DEFAULT_QUEUE).addAll(queues).build()) + ")"));
        }
        if (!problems.isEmpty() || resources.isEmpty()) {
            return new SparkApplicationPlan(ImmutableList.copyOf(problems), Optional.empty(), Optional.empty());
        }
        Map<String, String> minResources = new TreeMap<>();
        if (!application.userResources()) {
            resources.get().minResources().forEach((name, quantity) -> minResources.put(name, quantity.toString()));
        }
        ImmutableMap<String, String> annotations = ImmutableMap.of(
                ConfMinResources.EXPECTED_EXECUTORS, Integer.toString(resources.get().executors().expected()),
                ConfMinResources.GANG_EXECUTORS, Integer.toString(resources.get().executors().gang()));
        boolean mirror = volcano.isEmpty() || volcano.get().mirror();
        String name = coscheduling.map(PodGroupView::name).filter(unused -> mirror).orElseGet(() -> volcano.get().name());
        int minMember = mirror ? coscheduling.map(group -> group.spec().path("minMember").asInt(1)).orElse(1) : 1;
        // the operator's Volcano group keeps its queue unless the application names one; a mirror needs one
        Optional<String> podGroupQueue = mirror ? Optional.of(queue.orElse(DEFAULT_QUEUE)) : queue;
        PodGroupSpec spec = new PodGroupSpec(name, mirror, minMember, ImmutableMap.copyOf(minResources), podGroupQueue,
                application.priorityClassName(), annotations);
        Optional<String> pending = volcano.flatMap(PodGroupView::unschedulable).map(reason -> "Muster: " + reason);
        return new SparkApplicationPlan(ImmutableList.of(), Optional.of(spec), pending);
    }
}
