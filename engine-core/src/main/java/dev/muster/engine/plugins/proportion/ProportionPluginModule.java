package dev.muster.engine.plugins.proportion;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value ProportionPlugin#NAME} plugin. */
public final class ProportionPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(ProportionPlugin.NAME, ProportionPlugin.Factory.class);
    }
}
