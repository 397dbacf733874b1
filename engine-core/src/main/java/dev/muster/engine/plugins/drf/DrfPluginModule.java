package dev.muster.engine.plugins.drf;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value DrfPlugin#NAME} plugin. */
public final class DrfPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(DrfPlugin.NAME, DrfPlugin.Factory.class);
    }
}
