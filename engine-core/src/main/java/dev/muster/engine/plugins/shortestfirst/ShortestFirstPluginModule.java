package dev.muster.engine.plugins.shortestfirst;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value ShortestFirstPlugin#NAME} plugin. */
public final class ShortestFirstPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(ShortestFirstPlugin.NAME, ShortestFirstPlugin.Factory.class);
    }
}
