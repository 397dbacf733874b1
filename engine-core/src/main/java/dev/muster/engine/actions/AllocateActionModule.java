package dev.muster.engine.actions;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value AllocateAction#NAME} action. */
public final class AllocateActionModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindAction(AllocateAction.NAME, AllocateAction.Factory.class);
    }
}
