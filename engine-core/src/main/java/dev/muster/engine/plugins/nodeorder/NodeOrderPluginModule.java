package dev.muster.engine.plugins.nodeorder;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value NodeOrderPlugin#NAME} plugin. */
public final class NodeOrderPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(NodeOrderPlugin.NAME, NodeOrderPlugin.Factory.class);
    }
}
