package dev.muster.engine.plugins.predicates;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value PredicatesPlugin#NAME} plugin. */
public final class PredicatesPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(PredicatesPlugin.NAME, PredicatesPlugin.Factory.class);
    }
}
