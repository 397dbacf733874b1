package dev.muster.bridge.airflow.hints;

import java.util.Optional;

/**
 * Airflow's built-in {@code weight_rule}s ({@code airflow.task.weight_rule.WeightRule}), each with the
 * strategy class Airflow also accepts by name ({@code airflow.task.priority_strategy}). The API reports
 * a built-in rule by its value; any other value is the class of a custom strategy, which runs Python
 * the bridge cannot.
 */
public enum WeightRule {
    /** The task's own weight plus every downstream task's, each counted once. */
    DOWNSTREAM("downstream", "_DownstreamPriorityWeightStrategy"),
    /** The task's own weight plus every upstream task's, each counted once. */
    UPSTREAM("upstream", "_UpstreamPriorityWeightStrategy"),
    /** The task's own weight. */
    ABSOLUTE("absolute", "_AbsolutePriorityWeightStrategy");

    /** Airflow's default ({@code [core] default_task_weight_rule}). */
    public static final WeightRule DEFAULT = DOWNSTREAM;
    private static final String STRATEGIES = "airflow.task.priority_strategy.";

    private final String value;
    private final String strategy;

    WeightRule(String value, String strategy) {
        this.value = value;
        this.strategy = STRATEGIES + strategy;
    }

    /** As Airflow spells it in a DAG and in the API. */
    public String value() {
        return value;
    }

    /** The rule of a value, compared as Airflow does (exactly: {@code Downstream} is not a rule). */
    public static Optional<WeightRule> of(String value) {
        for (WeightRule rule : values()) {
            if (rule.value.equals(value) || rule.strategy.equals(value)) {
                return Optional.of(rule);
            }
        }
        return Optional.empty();
    }
}
