package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import java.util.Set;

/** A plugin built for a session with the switches its configuration turned off. */
public record PluginInstance(Plugin plugin, ImmutableSet<PluginFlag> disabled) {
    public PluginInstance {
        requireNonNull(plugin, "plugin is null");
        disabled = ImmutableSet.copyOf(disabled);
    }

    public static PluginInstance of(Plugin plugin, Set<PluginFlag> disabled) {
        return new PluginInstance(plugin, ImmutableSet.copyOf(disabled));
    }

    public boolean enabled(PluginFlag flag) {
        return !disabled.contains(flag);
    }
}
