package dev.muster.engine.cache;

/** A manifest file cannot be read or parsed at all: an I/O error or a YAML or JSON syntax error. */
public final class ManifestException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ManifestException(String message) {
        super(message);
    }

    public ManifestException(String message, Throwable cause) {
        super(message, cause);
    }
}
