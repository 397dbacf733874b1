package dev.muster.engine.plugins.conformance;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value ConformancePlugin#NAME} plugin. */
public final class ConformancePluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(ConformancePlugin.NAME, ConformancePlugin.Factory.class);
    }
}
