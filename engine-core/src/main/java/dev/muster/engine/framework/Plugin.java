package dev.muster.engine.framework;

/**
 * A scheduling plugin instance, built for one session by its {@link PluginFactory}. A plugin
 * contributes by implementing the extension-point interfaces of this package ({@link JobOrder},
 * {@link NodeFilter}, ...); the session calls each one only where the plugin's configuration enables
 * that point. Instances are used by one thread and die with the session.
 */
public interface Plugin {
    /** The configuration name, e.g. {@code gang}. */
    String name();
}
