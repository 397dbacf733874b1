package dev.muster.engine.actions;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;

/** Registers the {@value PreemptAction#NAME} action. */
public final class PreemptActionModule extends AbstractModule {
    @Override
    protected void configure() {
        pluginBinder(binder()).bindAction(PreemptAction.NAME, PreemptAction.Factory.class);
    }
}
