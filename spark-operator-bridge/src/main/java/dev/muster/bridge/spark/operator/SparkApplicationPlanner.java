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
 *   <li>GPUs of {@code spec.driver.gpu} and {@code spec.executor.gpu}: counted once for the driver (cluster
 *       mode) and once per expected executor, each replacing a {@code spark.*.resource.*} of the same name
 *       (as the operator's webhook replaces Spark's limit).
 *   <li>Warnings, which stop nothing: a {@code gpu} the webhook skips; a {@code spec.sparkConfigMap} that
 *       does not exist (the pods that mount it do not start) or whose {@code spark-defaults.conf} does not
 *       parse; confs in that file that would change the application's size, which Spark does not apply
 *       ({@link SparkDefaults}), so they are not counted and the user is told.
 * </ul>
 */
public final class SparkApplicationPlanner {
    /** The queue Muster's runtime creates, used when {@code batchSchedulerOptions.queue} names none. */
    public static final String DEFAULT_QUEUE = "default";

    private SparkApplicationPlanner() {}

    public static SparkApplicationPlan plan(SparkApplicationReader.Read read, ImmutableSet<String> queues, Optional<PodGroupView> volcano,
            Optional<PodGroupView> coscheduling) {
        return plan(read, queues, volcano, coscheduling, SparkDefaults.NONE);
    }

    /** As {@link #plan(SparkApplicationReader.Read, ImmutableSet, Optional, Optional)}, with what {@code spec.sparkConfigMap} names. */
    public static SparkApplicationPlan plan(SparkApplicationReader.Read read, ImmutableSet<String> queues, Optional<PodGroupView> volcano,
            Optional<PodGroupView> coscheduling, SparkDefaults defaults) {
        requireNonNull(defaults, "defaults is null");
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
        ImmutableList<FieldProblem> warnings = ImmutableList.<FieldProblem>builder().addAll(read.warnings())
                .addAll(defaultsWarnings(application, defaults)).build();
        Optional<ConfMinResources> resources = Optional.empty();
        try {
            resources = Optional.of(ConfMinResources.compute(application.confs(), application.nonJvm(), application.python(),
                    application.clusterMode(), application.driverLimits(), application.executorLimits()));
        } catch (ConfProblem e) {
            problems.add(new FieldProblem(application.fieldOf(e.key()), e.getMessage()));
        }
        Optional<String> queue = application.queue();
        if (queue.isPresent() && !queue.get().equals(DEFAULT_QUEUE) && !queues.contains(queue.get())) {
            problems.add(new FieldProblem("spec.batchSchedulerOptions.queue", "queue '" + queue.get() + "' does not exist (known: "
                    + String.join(", ", ImmutableSet.<String>builder().add(DEFAULT_QUEUE).addAll(queues).build()) + ")"));
        }
        if (!problems.isEmpty() || resources.isEmpty()) {
            return new SparkApplicationPlan(ImmutableList.copyOf(problems), warnings, Optional.empty(), Optional.empty());
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
        return new SparkApplicationPlan(ImmutableList.of(), warnings, Optional.of(spec), pending);
    }

    private static List<FieldProblem> defaultsWarnings(SparkApplication application, SparkDefaults defaults) {
        String field = "spec.sparkConfigMap";
        if (defaults instanceof SparkDefaults.Missing missing) {
            return List.of(new FieldProblem(field, "ConfigMap '" + application.namespace() + "/" + missing.configMap()
                    + "' does not exist; the operator's webhook mounts it into the driver and executor pods, which cannot start until"
                    + " it does"));
        }
        if (defaults instanceof SparkDefaults.Unparsable unparsable) {
            return List.of(new FieldProblem(field, "'" + unparsable.configMap() + "': " + SparkDefaults.FILE
                    + " does not parse as a properties file: " + unparsable.message()));
        }
        if (defaults instanceof SparkDefaults.Loaded loaded) {
            // what the file would change in the application's size; the same value as the application's own changes nothing
            List<String> ignored = new ArrayList<>();
            loaded.confs().forEach((key, value) -> {
                if (ConfMinResources.sizes(key) && !value.equals(application.confs().get(key))) {
                    ignored.add(key + "=" + value);
                }
            });
            if (!ignored.isEmpty()) {
                return List.of(new FieldProblem(field, "'" + loaded.configMap() + "': " + SparkDefaults.FILE + " sets "
                        + String.join(", ", ignored) + ", which Spark does not apply (the driver starts with --properties-file and"
                        + " without --load-spark-defaults, and the operator's spark-submit does not see the ConfigMap); minResources"
                        + " counts the application's own confs: set these in spec.sparkConf instead"));
            }
        }
        return List.of();
    }
}
