package dev.muster.engine.framework;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;

/** A plugin as the configuration names it: its factory, bound arguments and disabled switches. */
public record ConfiguredPlugin(PluginFactory<?> factory, Record args, ImmutableSet<PluginFlag> disabled) {
    public ConfiguredPlugin {
        requireNonNull(factory, "factory is null");
        requireNonNull(args, "args is null");
        checkArgument(factory.argsType().isInstance(args), "plugin %s: arguments %s are not %s",
                factory.name(), args.getClass().getSimpleName(), factory.argsType().getSimpleName());
        disabled = ImmutableSet.copyOf(disabled);
    }

    public static ConfiguredPlugin withDefaults(PluginFactory<?> factory) {
        return new ConfiguredPlugin(factory, factory.defaultArgs(), ImmutableSet.of());
    }

    public String name() {
        return factory.name();
    }

    PluginInstance instantiate(Session session) {
        return new PluginInstance(create(factory, args, session), disabled);
    }

    private static <A extends Record> Plugin create(PluginFactory<A> factory, Record args, Session session) {
        return factory.create(factory.argsType().cast(args), session);
    }
}
