package dev.muster.bridge.argo.server;

import java.util.OptionalInt;

/**
 * A call to the Argo Server that failed. The message names the server, the call and the workflow, then
 * the HTTP status and Argo's own message, or why no answer came.
 */
public final class ArgoServerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    ArgoServerException(String message, int status, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The HTTP status the server answered with; empty when no answer came. */
    public OptionalInt status() {
        return status == 0 ? OptionalInt.empty() : OptionalInt.of(status);
    }
}
