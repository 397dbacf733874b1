package dev.muster.engine.plugins.networktopologyaware;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value NetworkTopologyAwarePlugin#NAME} plugin. */
public final class NetworkTopologyAwarePluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(NetworkTopologyAwarePlugin.NAME, NetworkTopologyAwarePlugin.Factory.class);
    }
}
