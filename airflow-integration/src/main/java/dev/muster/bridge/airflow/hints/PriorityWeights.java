package dev.muster.bridge.airflow.hints;

import static java.lang.String.format;

import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.airflow.api.AirflowTask;
import dev.muster.graph.Dependency;
import dev.muster.graph.JobGraph;
import dev.muster.graph.NodeId;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Each task's effective priority weight as Airflow 3 computes it when it creates a task instance
 * ({@code airflow.task.priority_strategy}): {@code downstream} is the task's own weight plus that of
 * every task downstream of it, {@code upstream} plus every task upstream, each counted once however
 * many paths lead to it ({@code get_flat_relative_ids}); {@code absolute} is its own. A task's rule
 * decides its own sum only. A weight the bridge cannot use (missing, negative, not a whole number)
 * counts zero in every sum and leaves its own task without a weight; an unknown rule (a custom
 * strategy's class) is summed as {@code downstream}. Both are named in the weight's problems.
 */
final class PriorityWeights {
    // airflow.sdk.bases.operator.DB_SAFE_MAXIMUM: Airflow caps a task's own weight to 32 bits
    private static final BigDecimal DB_SAFE_MAXIMUM = BigDecimal.valueOf(Integer.MAX_VALUE);

    private PriorityWeights() {}

    /** @param graph the DAG of {@code tasks}, already checked to have no cycle */
    static Map<String, PriorityWeight> of(String dag, List<AirflowTask> tasks, JobGraph graph) {
        Map<String, OptionalLong> own = new HashMap<>();
        Map<String, List<String>> problems = new HashMap<>();
        for (AirflowTask task : tasks) {
            List<String> found = new ArrayList<>();
            own.put(task.taskId(), usable(dag, task, found));
            problems.put(task.taskId(), found);
        }
        ImmutableMap.Builder<String, PriorityWeight> weights = ImmutableMap.builder();
        for (AirflowTask task : tasks) {
            List<String> found = problems.get(task.taskId());
            WeightRule rule = rule(dag, task, found);
            OptionalLong mine = own.get(task.taskId());
            OptionalLong effective = OptionalLong.empty();
            if (mine.isPresent()) {
                long sum = mine.getAsLong();
                if (rule != WeightRule.ABSOLUTE) {
                    for (NodeId relative : relatives(graph, NodeId.of(task.taskId()), rule == WeightRule.UPSTREAM)) {
                        sum += own.getOrDefault(relative.value(), OptionalLong.empty()).orElse(0);
                    }
                }
                effective = OptionalLong.of(sum);
            }
            weights.put(task.taskId(), new PriorityWeight(text(task.priorityWeight()), task.weightRule().orElse(WeightRule.DEFAULT.value()),
                    effective, found));
        }
        return weights.buildOrThrow();
    }

    private static OptionalLong usable(String dag, AirflowTask task, List<String> problems) {
        Optional<BigDecimal> weight = task.priorityWeight();
        String why;
        if (weight.isEmpty()) {
            why = "is missing";
        } else if (weight.get().signum() < 0) {
            why = "is negative";
        } else if (weight.get().stripTrailingZeros().scale() > 0) {
            why = "is not a whole number";
        } else {
            return OptionalLong.of(weight.get().min(DB_SAFE_MAXIMUM).longValueExact());
        }
        problems.add(format("DAG %s: task %s: priority_weight %s %s; ignored for ordering (it counts 0 in every task's weight)", dag,
                task.taskId(), text(weight), why));
        return OptionalLong.empty();
    }

    private static WeightRule rule(String dag, AirflowTask task, List<String> problems) {
        if (task.weightRule().isEmpty()) {
            return WeightRule.DEFAULT;
        }
        Optional<WeightRule> rule = WeightRule.of(task.weightRule().get());
        if (rule.isEmpty()) {
            problems.add(format("DAG %s: task %s: weight_rule '%s' is not one of downstream, upstream, absolute (a custom strategy runs"
                    + " Python the bridge cannot); its weight is summed as for downstream", dag, task.taskId(), task.weightRule().get()));
        }
        return rule.orElse(WeightRule.DEFAULT);
    }

    /** Every task reachable from {@code start} in one direction, without {@code start}. */
    private static Set<NodeId> relatives(JobGraph graph, NodeId start, boolean upstream) {
        Set<NodeId> seen = new HashSet<>();
        Deque<NodeId> next = new ArrayDeque<>(List.of(start));
        while (!next.isEmpty()) {
            NodeId node = next.pop();
            for (Dependency edge : upstream ? graph.parents(node) : graph.children(node)) {
                NodeId relative = upstream ? edge.parent() : edge.child();
                if (seen.add(relative)) {
                    next.push(relative);
                }
            }
        }
        return seen;
    }

    private static String text(Optional<BigDecimal> weight) {
        return weight.map(value -> value.stripTrailingZeros().toPlainString()).orElse("null");
    }
}
