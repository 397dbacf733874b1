package dev.muster.engine.plugins.overcommit;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value OvercommitPlugin#NAME} plugin. */
public final class OvercommitPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(OvercommitPlugin.NAME, OvercommitPlugin.Factory.class);
    }
}
