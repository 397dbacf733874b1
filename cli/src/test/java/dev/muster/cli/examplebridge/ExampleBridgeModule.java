package dev.muster.cli.examplebridge;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;
import static dev.muster.runtime.controller.ControllerBinder.controllerBinder;

import com.google.inject.AbstractModule;

/**
 * The smallest bridge (docs/bridges.md): one module that contributes a controller, the CRD it
 * watches and a scheduling plugin, with no change to the engine or the runtime.
 */
public final class ExampleBridgeModule extends AbstractModule {
    @Override
    protected void configure() {
        controllerBinder(binder())
                .addController(ExampleJobController.class)
                .addCustomResourceDefinitions(ExampleBridgeModule.class, "/examplebridge/crds.yaml");
        pluginBinder(binder()).bindPlugin(AvoidNodePlugin.NAME, AvoidNodePlugin.Factory.class);
    }
}
