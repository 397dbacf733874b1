package dev.muster.runtime;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import dev.muster.runtime.binding.IdleProbe;
import dev.muster.runtime.controller.CustomResourceDefinitions;
import dev.muster.runtime.informers.CacheInformers;
import dev.muster.runtime.leader.LeaderElection;
import dev.muster.runtime.metrics.Health;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;

/**
 * The scheduler wired to one API server, as {@link RuntimeModule} assembles it: informers into the
 * cache, the loop, the writers and the contributed controllers. What {@code muster run} and
 * {@code muster up} start. With a lease, the informers run at once (a standby keeps its cache warm)
 * and the loop and the controllers only while this replica leads.
 */
public final class KubernetesRuntime {
    /** How often to say, while waiting, that the API server cannot be read yet. */
    private static final Duration WARN_EVERY = Duration.ofSeconds(10);

    private final CacheInformers informers;
    private final PrometheusRegistry registry;
    private final Health health;
    private final LeadershipTerm term;
    private final Optional<LeaderElection> election;
    private final ImmutableList<CustomResourceDefinitions> definitions;
    private final IdleProbe probe;

    @Inject
    KubernetesRuntime(CacheInformers informers, PrometheusRegistry registry, Health health, LeadershipTerm term,
            Optional<LeaderElection> election, Set<CustomResourceDefinitions> definitions, IdleProbe probe) {
        this.informers = requireNonNull(informers, "informers is null");
        this.probe = requireNonNull(probe, "probe is null");
        this.registry = requireNonNull(registry, "registry is null");
        this.health = requireNonNull(health, "health is null");
        this.term = requireNonNull(term, "term is null");
        this.election = requireNonNull(election, "election is null");
        this.definitions = definitions.stream()
                .sorted(Comparator.comparing(CustomResourceDefinitions::resource).thenComparing(definition -> definition.owner().getName()))
                .collect(ImmutableList.toImmutableList());
    }

    /** The CRDs the installed modules' controllers need served, for an API server that Muster runs itself. */
    public ImmutableList<CustomResourceDefinitions> customResourceDefinitions() {
        return definitions;
    }

    /** The metrics of this runtime and of the JVM, for {@code /metrics}. */
    public PrometheusRegistry registry() {
        return registry;
    }

    public Health health() {
        return health;
    }

    /** Waits, retrying, until the informers have listed the cluster once, then starts the term or the campaign. */
    public void start() throws InterruptedException {
        informers.start(WARN_EVERY);
        health.informersSynced();
        // from here on, not while the informers still say themselves that the server cannot be read
        probe.start();
        if (election.isPresent()) {
            election.get().start();
        } else {
            term.begin();
        }
    }

    /** Ends the term (the loop after the cycle in progress; with a lease, then releases it), then stops the informers. */
    public void stop() throws InterruptedException {
        try {
            if (election.isPresent()) {
                election.get().close();
            } else {
                term.end();
            }
        } finally {
            probe.close();
            informers.stop();
        }
    }
}
