package dev.muster.bridge.airflow;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.inject.Inject;
import dev.muster.runtime.controller.TermController;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;

/** The Airflow bridge's controller: an {@link AirflowTerm} per leader term. */
@ThreadSafe
public final class AirflowPodController extends TermController {
    private final KubernetesClient client;
    private final Clock clock;
    private final AirflowBridgeSettings settings;

    @Inject
    public AirflowPodController(KubernetesClient client, Clock clock, AirflowBridgeSettings settings) {
        this.client = requireNonNull(client, "client is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    @Override
    public String name() {
        return "airflow-pods";
    }

    @Override
    protected Term newTerm() {
        return new AirflowTerm(client, clock, settings);
    }
}
