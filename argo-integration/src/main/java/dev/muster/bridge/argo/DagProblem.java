package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

/**
 * Why a Workflow runs without the {@code dag} plugin's hints.
 *
 * @param task the task or step at fault, empty when the problem is the template's
 * @param field the field at fault, as the template spells it ({@code dag.tasks[3].depends})
 */
public record DagProblem(String template, String task, String field, String message) {
    public DagProblem {
        requireNonNull(template, "template is null");
        requireNonNull(task, "task is null");
        requireNonNull(field, "field is null");
        requireNonNull(message, "message is null");
    }

    /** The event's text: the template, the task, the field, the bad value and what follows. */
    public String describe() {
        return "template '" + template + "'" + (task.isEmpty() ? "" : ", task '" + task + "'") + ": " + field + ": " + message
                + "; it runs without DAG hints";
    }
}
