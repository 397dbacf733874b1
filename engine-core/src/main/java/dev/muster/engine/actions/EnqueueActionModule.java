package dev.muster.engine.actions;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value EnqueueAction#NAME} action. */
public final class EnqueueActionModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindAction(EnqueueAction.NAME, EnqueueAction.Factory.class);
    }
}
