package dev.muster.embedded;

/** A label or field selector kube-apiserver would refuse with 400 BadRequest; the message is the one it gives. */
final class BadSelectorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadSelectorException(String message) {
        super(message);
    }
}
