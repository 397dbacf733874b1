package dev.muster.engine.plugins.capacity;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value CapacityPlugin#NAME} plugin. */
public final class CapacityPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(CapacityPlugin.NAME, CapacityPlugin.Factory.class);
    }
}
