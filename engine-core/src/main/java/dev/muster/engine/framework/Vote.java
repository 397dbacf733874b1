package dev.muster.engine.framework;

/** A plugin's answer to a yes/no question that others may also answer (Volcano's vote functions). */
public enum Vote {
    PERMIT,
    ABSTAIN,
    REJECT
}
