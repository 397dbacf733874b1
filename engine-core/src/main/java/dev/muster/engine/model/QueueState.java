package dev.muster.engine.model;

/** The state of a queue: only an Open queue admits and allocates. */
public enum QueueState {
    OPEN("Open"),
    CLOSED("Closed"),
    CLOSING("Closing"),
    UNKNOWN("Unknown");

    private final String text;

    QueueState(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    /** Reads {@code status.state}; an empty state is Open, as a new queue is. */
    public static QueueState parse(String text) {
        if (text == null || text.isEmpty()) {
            return OPEN;
        }
        for (QueueState state : values()) {
            if (state.text.equals(text)) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown queue state '" + text + "' (known: Open, Closed, Closing, Unknown)");
    }
}
