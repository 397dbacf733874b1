package dev.muster.bridge.airflow.hints;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A task's priority weight: its own {@code priority_weight} and {@code weight_rule} as the API gave them
 * (for explanations), its effective weight as Airflow computes it (the sum the rule names), and what
 * was wrong with the input. The effective weight is empty when the task's own weight cannot be used
 * (missing, negative, not a whole number): it then has no weight in the order.
 */
public record PriorityWeight(String ownWeight, String weightRule, OptionalLong effective, List<String> problems) {
    public PriorityWeight {
        requireNonNull(ownWeight, "ownWeight is null");
        requireNonNull(weightRule, "weightRule is null");
        requireNonNull(effective, "effective is null");
        checkArgument(effective.orElse(0) >= 0, "effective weight is negative: %s", effective);
        problems = ImmutableList.copyOf(problems);
    }
}
