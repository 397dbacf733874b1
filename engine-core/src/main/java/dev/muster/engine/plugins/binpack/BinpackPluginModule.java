package dev.muster.engine.plugins.binpack;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value BinpackPlugin#NAME} plugin. */
public final class BinpackPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(BinpackPlugin.NAME, BinpackPlugin.Factory.class);
    }
}
