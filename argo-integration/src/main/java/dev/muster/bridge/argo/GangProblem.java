package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

/**
 * Why a template's fan-outs, or one of them, run without gang semantics.
 *
 * @param field the annotation at fault, as the Workflow spells it
 */
public record GangProblem(String template, String field, String message) {
    public GangProblem {
        requireNonNull(template, "template is null");
        requireNonNull(field, "field is null");
        requireNonNull(message, "message is null");
    }

    /** The event's text: the template, the field, the bad value and what follows. */
    public String describe() {
        return "template '" + template + "': metadata.annotations." + field + ": " + message + "; it runs without gang semantics";
    }
}
