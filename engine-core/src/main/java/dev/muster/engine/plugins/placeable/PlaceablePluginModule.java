package dev.muster.engine.plugins.placeable;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value PlaceablePlugin#NAME} plugin. */
public final class PlaceablePluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(PlaceablePlugin.NAME, PlaceablePlugin.Factory.class);
    }
}
