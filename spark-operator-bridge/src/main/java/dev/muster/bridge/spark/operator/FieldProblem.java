package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

/** Bad input in a SparkApplication: the field at fault (a spec path) and what is wrong with its value. */
public record FieldProblem(String field, String message) {
    public FieldProblem {
        requireNonNull(field, "field is null");
        requireNonNull(message, "message is null");
    }

    @Override
    public String toString() {
        return field + ": " + message;
    }
}
