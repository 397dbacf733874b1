package dev.muster.engine.plugins.dag;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value DagPlugin#NAME} plugin. */
public final class DagPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(DagPlugin.NAME, DagPlugin.Factory.class);
    }
}
