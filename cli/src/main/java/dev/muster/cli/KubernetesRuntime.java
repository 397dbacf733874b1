package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.binding.DecisionWriter;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.cache.ClusterInformers;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.scheduler.Scheduler;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

/**
 * The scheduler wired to one API server: informers into the cache, the loop, and the writers. What
 * {@code muster run} starts, and what an embedded server or a leader elector can start and stop.
 */
final class KubernetesRuntime {
    static final int BIND_PARALLELISM = 32;
    /** How often to say, while waiting, that the API server cannot be read yet. */
    private static final Duration WARN_EVERY = Duration.ofSeconds(10);

    private final ClusterInformers informers;
    private final Scheduler scheduler;

    KubernetesRuntime(KubernetesClient client, SessionConfig config, Set<String> schedulerNames, Duration period, Clock clock) {
        requireNonNull(client, "client is null");
        ClusterCache cache = new ClusterCache(schedulerNames, clock);
        this.informers = new ClusterInformers(client, cache);
        this.scheduler = new Scheduler(cache, config, DecisionWriter.connect(client, cache, BIND_PARALLELISM, clock), period,
                clock, report -> {});
    }

    /** Waits, retrying, until the informers have listed the cluster once, then starts the loop. */
    void start() throws InterruptedException {
        informers.start(WARN_EVERY);
        scheduler.start();
    }

    /** Stops the loop after the cycle in progress, then the informers. */
    void stop() throws InterruptedException {
        scheduler.stop();
        informers.stop();
    }
}
