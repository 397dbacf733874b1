package dev.muster.bridge.airflow;

import static dev.muster.runtime.controller.ControllerBinder.controllerBinder;
import static java.util.Objects.requireNonNull;

import com.google.inject.AbstractModule;

/**
 * The Airflow bridge (docs/bridges.md): the {@link AirflowPodController}, for one Airflow whose
 * settings are given. It needs no CRD of its own: Airflow's objects live in Airflow, not in the API server.
 */
public final class AirflowBridgeModule extends AbstractModule {
    private final AirflowBridgeSettings settings;

    public AirflowBridgeModule(AirflowBridgeSettings settings) {
        this.settings = requireNonNull(settings, "settings is null");
    }

    @Override
    protected void configure() {
        bind(AirflowBridgeSettings.class).toInstance(settings);
        controllerBinder(binder()).addController(AirflowPodController.class);
    }
}
