package dev.muster.engine.plugins.sla;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value SlaPlugin#NAME} plugin. */
public final class SlaPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(SlaPlugin.NAME, SlaPlugin.Factory.class);
    }
}
