package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.inject.Inject;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;

/**
 * SparkApplications run by the spark-operator, completed for Muster (see the package comment). Each
 * term gets a fresh {@link SparkApplicationTerm}; a new term sees every application again, and writing
 * a plan twice changes nothing.
 */
@ThreadSafe
public final class SparkApplicationController extends TermController {
    public static final String NAME = "spark-applications";

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final Clock clock;

    @Inject
    public SparkApplicationController(KubernetesClient client, SharedInformers informers, Clock clock) {
        this.client = requireNonNull(client, "client is null");
        this.informers = requireNonNull(informers, "informers is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Term newTerm() {
        return new SparkApplicationTerm(client, informers, clock);
    }
}
