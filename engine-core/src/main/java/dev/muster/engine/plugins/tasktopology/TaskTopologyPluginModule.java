package dev.muster.engine.plugins.tasktopology;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value TaskTopologyPlugin#NAME} plugin. */
public final class TaskTopologyPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(TaskTopologyPlugin.NAME, TaskTopologyPlugin.Factory.class);
    }
}
