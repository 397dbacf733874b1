package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.Optional;

/**
 * What the bridge decided for one SparkApplication, applied by {@link SparkApplicationWriter}.
 *
 * @param problems bad input the application cannot be completed with, each an Event on the application
 * @param warnings bad or ineffective input that stops nothing (the PodGroup is still written), each an Event on the application
 * @param podGroup the Volcano PodGroup fields to write
 * @param pending Muster's reason the application waits, for an Event on it
 */
public record SparkApplicationPlan(ImmutableList<FieldProblem> problems, ImmutableList<FieldProblem> warnings,
        Optional<PodGroupSpec> podGroup, Optional<String> pending) {
    public static final SparkApplicationPlan NOTHING = new SparkApplicationPlan(ImmutableList.of(), Optional.empty(), Optional.empty());

    public SparkApplicationPlan {
        problems = ImmutableList.copyOf(problems);
        warnings = ImmutableList.copyOf(warnings);
        requireNonNull(podGroup, "podGroup is null");
        requireNonNull(pending, "pending is null");
    }

    /** A plan without warnings. */
    public SparkApplicationPlan(ImmutableList<FieldProblem> problems, Optional<PodGroupSpec> podGroup, Optional<String> pending) {
        this(problems, ImmutableList.of(), podGroup, pending);
    }

    /**
     * A Volcano PodGroup as the bridge wants it: the operator's own ({@code mirror} false: only these
     * fields are merged into it), or the bridge's mirror of a scheduler-plugins one ({@code mirror} true:
     * created if absent).
     *
     * @param minResources empty when the user's {@code batchSchedulerOptions.resources} stand
     * @param annotations Muster's annotations: expected and gang executors
     */
    public record PodGroupSpec(String name, boolean mirror, int minMember, ImmutableMap<String, String> minResources,
            Optional<String> queue, Optional<String> priorityClassName, ImmutableMap<String, String> annotations) {
        public PodGroupSpec {
            requireNonNull(name, "name is null");
            minResources = ImmutableMap.copyOf(minResources);
            requireNonNull(queue, "queue is null");
            requireNonNull(priorityClassName, "priorityClassName is null");
            annotations = ImmutableMap.copyOf(annotations);
        }
    }
}
