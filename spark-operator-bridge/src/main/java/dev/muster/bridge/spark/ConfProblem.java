package dev.muster.bridge.spark;

import static java.util.Objects.requireNonNull;

/**
 * A Spark conf that Muster's step cannot use, thrown from the step's {@code init} or before the
 * application's first object is written, so the submission fails before any pod exists. The message
 * names the conf key and its bad value.
 */
public final class ConfProblem extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String key;

    ConfProblem(String key, String message) {
        super(requireNonNull(key, "key is null") + ": " + requireNonNull(message, "message is null"));
        this.key = key;
    }

    ConfProblem(String key, String message, Throwable cause) {
        this(key, message);
        initCause(cause);
    }

    /** The Spark conf key that is wrong. */
    public String key() {
        return key;
    }
}
