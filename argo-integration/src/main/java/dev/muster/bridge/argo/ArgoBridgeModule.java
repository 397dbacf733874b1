package dev.muster.bridge.argo;

import static dev.muster.runtime.controller.ControllerBinder.controllerBinder;
import static java.util.Objects.requireNonNull;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import com.google.inject.multibindings.OptionalBinder;
import dev.muster.bridge.argo.server.ArgoServerSettings;

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
        // none unless server(...) sets it: admission then resumes through the Kubernetes API
        OptionalBinder.newOptionalBinder(binder(), ArgoServerSettings.class);
    }

    /**
     * With {@link ArgoBridgeModule}: the bridge resumes admitted workflows through the Argo Server at {@code settings}
     * ({@link dev.muster.bridge.argo.server.ArgoServerClient}) rather than by patching them.
     */
    public static Module server(ArgoServerSettings settings) {
        requireNonNull(settings, "settings is null");
        return binder -> OptionalBinder.newOptionalBinder(binder, ArgoServerSettings.class).setBinding().toInstance(settings);
    }
}
