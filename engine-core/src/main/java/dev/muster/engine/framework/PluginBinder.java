package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

import com.google.inject.Binder;
import com.google.inject.Scopes;
import com.google.inject.TypeLiteral;
import com.google.inject.multibindings.MapBinder;

/**
 * Registers plugin and action factories under their configuration names. A name bound twice fails
 * when the injector is created.
 *
 * <pre>{@code pluginBinder(binder()).bindPlugin(GangPlugin.NAME, GangPlugin.Factory.class);}</pre>
 */
public final class PluginBinder {
    private final MapBinder<String, PluginFactory<?>> plugins;
    private final MapBinder<String, ActionFactory<?>> actions;

    private PluginBinder(Binder binder) {
        requireNonNull(binder, "binder is null");
        this.plugins = MapBinder.newMapBinder(binder, new TypeLiteral<String>() {}, new TypeLiteral<PluginFactory<?>>() {});
        this.actions = MapBinder.newMapBinder(binder, new TypeLiteral<String>() {}, new TypeLiteral<ActionFactory<?>>() {});
    }

    public static PluginBinder pluginBinder(Binder binder) {
        return new PluginBinder(binder);
    }

    public void bindPlugin(String name, Class<? extends PluginFactory<?>> factory) {
        plugins.addBinding(name).to(factory).in(Scopes.SINGLETON);
    }

    public void bindAction(String name, Class<? extends ActionFactory<?>> factory) {
        actions.addBinding(name).to(factory).in(Scopes.SINGLETON);
    }
}
