package dev.muster.engine.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.Map;

/** One node selector requirement: In, NotIn, Exists, DoesNotExist, Gt or Lt on a label. */
public record LabelRequirement(String key, String operator, ImmutableList<String> values) {
    public LabelRequirement {
        requireNonNull(key, "key is null");
        requireNonNull(operator, "operator is null");
        values = ImmutableList.copyOf(values);
    }

    public boolean matches(Map<String, String> labels) {
        String actual = labels.get(key);
        return switch (operator) {
            case "In" -> actual != null && values.contains(actual);
            case "NotIn" -> actual == null || !values.contains(actual);
            case "Exists" -> actual != null;
            case "DoesNotExist" -> actual == null;
            case "Gt" -> actual != null && compareNumbers(actual) > 0;
            case "Lt" -> actual != null && compareNumbers(actual) < 0;
            default -> false;
        };
    }

    private int compareNumbers(String actual) {
        try {
            return Long.compare(Long.parseLong(actual), Long.parseLong(values.get(0)));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            // a label that is not a number never satisfies Gt or Lt, as in Kubernetes
            return 0;
        }
    }
}
