package dev.muster.bridge.argo;

import static dev.muster.runtime.controller.ControllerBinder.controllerBinder;

import com.google.inject.AbstractModule;

/**
 * The Argo Workflows bridge (docs/bridges.md): the {@link ArgoGangController}, and Argo's CRDs for the
 * embedded API server (Argo v4.0.5's minimal ones, which Argo itself installs).
 */
public final class ArgoBridgeModule extends AbstractModule {
    /** The class-path resource of Argo's CRDs. */
    public static final String CRDS = "/dev/muster/bridge/argo/crds.yaml";

    @Override
    protected void configure() {
        controllerBinder(binder())
                .addController(ArgoGangController.class)
                .addCustomResourceDefinitions(ArgoBridgeModule.class, CRDS);
    }
}
