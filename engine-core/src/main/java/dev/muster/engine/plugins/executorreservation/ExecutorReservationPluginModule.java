package dev.muster.engine.plugins.executorreservation;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value ExecutorReservationPlugin#NAME} plugin. */
public final class ExecutorReservationPluginModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindPlugin(ExecutorReservationPlugin.NAME, ExecutorReservationPlugin.Factory.class);
    }
}
