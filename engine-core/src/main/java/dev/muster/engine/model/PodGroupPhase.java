package dev.muster.engine.model;

/** The phase of a PodGroup, with Volcano's meaning. */
public enum PodGroupPhase {
    PENDING("Pending"),
    INQUEUE("Inqueue"),
    RUNNING("Running"),
    UNKNOWN("Unknown"),
    COMPLETED("Completed");

    private final String text;

    PodGroupPhase(String text) {
        this.text = text;
    }

    /** The phase as written in {@code status.phase}. */
    public String text() {
        return text;
    }

    /** Reads {@code status.phase}; an empty phase is Pending, as in Volcano. */
    public static PodGroupPhase parse(String text) {
        if (text == null || text.isEmpty()) {
            return PENDING;
        }
        for (PodGroupPhase phase : values()) {
            if (phase.text.equals(text)) {
                return phase;
            }
        }
        throw new IllegalArgumentException("unknown PodGroup phase '" + text + "' (known: Pending, Inqueue, Running, Unknown, Completed)");
    }
}
