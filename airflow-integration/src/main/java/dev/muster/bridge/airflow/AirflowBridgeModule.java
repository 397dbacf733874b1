package dev.muster.bridge.airflow;

import static dev.muster.runtime.controller.ControllerBinder.controllerBinder;
import static java.util.Objects.requireNonNull;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import com.google.inject.multibindings.OptionalBinder;
import java.util.Optional;

/**
 * The Airflow bridge (docs/bridges.md): the {@link AirflowPodController}, for the one Airflow whose
 * settings a {@link #settings} module binds; without it the controller is there and does nothing, so
 * that {@code muster up} can install every bridge and turn this one on only when told where Airflow is.
 * It needs no CRD of its own: Airflow's objects live in Airflow, not in the API server.
 */
public final class AirflowBridgeModule extends AbstractModule {
    private final Optional<AirflowBridgeSettings> settings;

    /** The bridge, off unless a {@link #settings} module is installed beside it. */
    public AirflowBridgeModule() {
        this.settings = Optional.empty();
    }

    /** The bridge, on, for one Airflow. */
    public AirflowBridgeModule(AirflowBridgeSettings settings) {
        this.settings = Optional.of(requireNonNull(settings, "settings is null"));
    }

    /** Turns on the bridge of an {@link AirflowBridgeModule} installed in the same injector. */
    public static Module settings(AirflowBridgeSettings settings) {
        requireNonNull(settings, "settings is null");
        return binder -> OptionalBinder.newOptionalBinder(binder, AirflowBridgeSettings.class).setBinding().toInstance(settings);
    }

    @Override
    protected void configure() {
        OptionalBinder.newOptionalBinder(binder(), AirflowBridgeSettings.class);
        settings.ifPresent(given -> install(settings(given)));
        controllerBinder(binder()).addController(AirflowPodController.class);
    }
}
