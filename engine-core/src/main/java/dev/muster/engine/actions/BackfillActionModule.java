package dev.muster.engine.actions;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value BackfillAction#NAME} action. */
public final class BackfillActionModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindAction(BackfillAction.NAME, BackfillAction.Factory.class);
    }
}
