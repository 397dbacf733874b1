package dev.muster.engine.actions;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value ReclaimAction#NAME} action. */
public final class ReclaimActionModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindAction(ReclaimAction.NAME, ReclaimAction.Factory.class);
    }
}
