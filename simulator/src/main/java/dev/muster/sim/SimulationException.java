package dev.muster.sim;

/** Input the simulation cannot use: a missing or malformed trace or cluster file, an unknown policy. */
public final class SimulationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SimulationException(String message) {
        super(message);
    }

    public SimulationException(String message, Throwable cause) {
        super(message, cause);
    }
}
