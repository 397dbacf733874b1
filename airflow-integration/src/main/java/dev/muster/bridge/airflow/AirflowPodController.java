package dev.muster.bridge.airflow;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.inject.Inject;
import dev.muster.bridge.airflow.api.AirflowSettings;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Airflow bridge's controller: an {@link AirflowTerm} per leader term, or nothing when no Airflow is configured. */
@ThreadSafe
public final class AirflowPodController extends TermController {
    private static final Logger log = LoggerFactory.getLogger(AirflowPodController.class);

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final Clock clock;
    private final Optional<AirflowBridgeSettings> settings;

    @Inject
    public AirflowPodController(KubernetesClient client, SharedInformers informers, Clock clock, Optional<AirflowBridgeSettings> settings) {
        this.client = requireNonNull(client, "client is null");
        this.informers = requireNonNull(informers, "informers is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    @Override
    public String name() {
        return "airflow-pods";
    }

    /** Whether an Airflow is configured; without one, each term does nothing. */
    public boolean enabled() {
        return settings.isPresent();
    }

    @Override
    protected Term newTerm() {
        if (settings.isEmpty()) {
            log.info("airflow bridge: off (no {} given)", AirflowSettings.URL);
            return new Term() {
                @Override
                public void start() {}

                @Override
                public void stop() {}
            };
        }
        log.info("airflow bridge: reading {} every {} ms", settings.get().api(), settings.get().pollPeriod().toMillis());
        return new AirflowTerm(client, informers, clock, settings.get());
    }
}
