package dev.muster.engine.framework;

/** The arguments of a plugin or action that takes none: any argument given is an error. */
public record NoArgs() {
    public static final NoArgs INSTANCE = new NoArgs();
}
