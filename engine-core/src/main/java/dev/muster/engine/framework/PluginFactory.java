package dev.muster.engine.framework;

/**
 * Builds a plugin for each session. A factory is a singleton: it may hold injected services (a
 * clock, metrics) but no session state.
 *
 * @param <A> the record the plugin's {@code arguments} bind to
 */
public interface PluginFactory<A extends Record> {
    /** The name used in the scheduler configuration, e.g. {@code binpack}. */
    String name();

    /** The arguments record; the configuration loader binds {@code arguments} to it strictly. */
    Class<A> argsType();

    /** The arguments used when the configuration gives none. */
    A defaultArgs();

    /**
     * Builds the plugin for a session that is opening. Called once per session, on the scheduling
     * thread, after the session's jobs and nodes are set up and before any action runs. The plugin
     * may read the session to precompute its state (shares, deserved quantities) but must not change it.
     */
    Plugin create(A args, Session session);
}
