package dev.muster.cli;

/** The exit codes of {@code muster}. */
public final class ExitCodes {
    /** Decided: the command did its work (pending jobs are decisions too). */
    public static final int OK = 0;
    /** Something unexpected failed; the message says what. */
    public static final int FAILURE = 1;
    /** A file or the configuration could not be read or parsed at all. */
    public static final int BAD_INPUT = 2;

    private ExitCodes() {}
}
