package dev.muster.engine.plugins.priority;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value PriorityPlugin#NAME} plugin. */
public final class PriorityPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(PriorityPlugin.NAME, PriorityPlugin.Factory.class);
    }
}
