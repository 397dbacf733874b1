package dev.muster.jobs.runtime;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.inject.Inject;
import dev.muster.jobs.jobplugins.SshKeyGenerator;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;

/**
 * Volcano's job controllers as one {@link TermController}: each term gets a fresh {@link VolcanoControllerTerm}
 * (its informers, work queues and threads), so nothing of a lost term survives into the next.
 */
@ThreadSafe
public final class VolcanoJobsController extends TermController {
    public static final String NAME = "volcano-jobs";

    /** What every term's controllers are made with. */
    public record Settings(SshKeyGenerator keys, Duration resyncPeriod) {
        public Settings {
            requireNonNull(keys, "keys is null");
            requireNonNull(resyncPeriod, "resyncPeriod is null");
        }
    }

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final Clock clock;
    private final Settings settings;

    @Inject
    public VolcanoJobsController(KubernetesClient client, SharedInformers informers, Clock clock, Settings settings) {
        this.client = requireNonNull(client, "client is null");
        this.informers = requireNonNull(informers, "informers is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Term newTerm() {
        return new VolcanoControllerTerm(client, informers, clock, settings.keys(), settings.resyncPeriod());
    }
}
