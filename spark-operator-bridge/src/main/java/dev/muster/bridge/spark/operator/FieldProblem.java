package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

/** Bad input in a SparkApplication: the field at fault (a spec path) and what is wrong with its value. */
public record FieldProblem(String field, String message) {
    public FieldProblem {
        requireNonNull(field, "field is null");
        requireNonNull(message, "message is null");
    }

    /**
     * The same problem in a ScheduledSparkApplication, whose {@code spec.template} is the spec of each SparkApplication
     * it makes: {@code spec.executor.memory} is its {@code spec.template.executor.memory}.
     */
    public FieldProblem inTemplate() {
        return field.startsWith("spec.") ? new FieldProblem("spec.template." + field.substring("spec.".length()), message) : this;
    }

    @Override
    public String toString() {
        return field + ": " + message;
    }
}
