package dev.muster.engine.plugins.resourcestrategyfit;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value ResourceStrategyFitPlugin#NAME} plugin. */
public final class ResourceStrategyFitPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(ResourceStrategyFitPlugin.NAME, ResourceStrategyFitPlugin.Factory.class);
    }
}
