package dev.muster.peers;

/** A peer could not be installed, could not start, or died; the message carries what it said. */
public final class PeerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PeerException(String message) {
        super(message);
    }

    public PeerException(String message, Throwable cause) {
        super(message, cause);
    }
}
