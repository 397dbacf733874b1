package dev.muster.engine.plugins.gang;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value GangPlugin#NAME} plugin. */
public final class GangPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(GangPlugin.NAME, GangPlugin.Factory.class);
    }
}
