package dev.muster.engine.framework;

/**
 * Builds an action from its arguments (the configuration's {@code configurations} entry for it).
 * A singleton; the actions it builds hold no session state.
 *
 * @param <A> the record the action's {@code arguments} bind to
 */
public interface ActionFactory<A extends Record> {
    /** The name used in the configuration's {@code actions}, e.g. {@code allocate}. */
    String name();

    Class<A> argsType();

    A defaultArgs();

    Action create(A args);
}
