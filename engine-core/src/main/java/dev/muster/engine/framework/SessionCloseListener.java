package dev.muster.engine.framework;


/**
 * Told when the session closes, to record per-job outcomes (conditions, reasons).
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface SessionCloseListener {
    void sessionClosed(Session session);
}
