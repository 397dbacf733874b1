package dev.muster.runtime;

import static dev.muster.runtime.controller.ControllerBinder.controllerBinder;
import static java.util.Objects.requireNonNull;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Scopes;
import com.google.inject.Singleton;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.runtime.admission.AdmissionTrial;
import dev.muster.runtime.binding.ApiServerReachability;
import dev.muster.runtime.binding.Binder;
import dev.muster.runtime.binding.IdleProbe;
import dev.muster.runtime.binding.DecisionWriter;
import dev.muster.runtime.binding.FencedClient;
import dev.muster.runtime.binding.WriteFence;
import dev.muster.runtime.controller.ControllerSet;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.history.JobHistoryStore;
import dev.muster.runtime.informers.CacheInformers;
import dev.muster.runtime.leader.LeaderElection;
import dev.muster.runtime.leader.LeaseConfig;
import dev.muster.runtime.leader.LeaseFence;
import dev.muster.runtime.metrics.Health;
import dev.muster.runtime.metrics.SchedulerMetrics;
import dev.muster.runtime.scheduler.Scheduler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The scheduler against an API server, every part a singleton: the cache and its informers, the
 * writers, the loop, metrics and health, leader election when {@link RuntimeOptions#lease()} is set,
 * and the set of contributed {@link dev.muster.runtime.controller.Controller}s (empty unless a module
 * adds one). Needs a {@link KubernetesClient} ({@link KubernetesModule}), a {@link Clock} and the
 * engine's modules (for {@link SchedulerConfigLoader}).
 */
public final class RuntimeModule extends AbstractModule {
    /** Binds in flight at once. */
    public static final int BIND_PARALLELISM = 32;
    /** A leader whose loop finishes no cycle for this long (or 20 periods, if longer) is not live. */
    private static final Duration MIN_STALL = Duration.ofMinutes(2);

    private final RuntimeOptions options;

    public RuntimeModule(RuntimeOptions options) {
        this.options = requireNonNull(options, "options is null");
    }

    @Override
    protected void configure() {
        bind(RuntimeOptions.class).toInstance(options);
        bind(SchedulerMetrics.class).in(Scopes.SINGLETON);
        bind(PrometheusRegistry.class).toProvider(RuntimeModule::registry).in(Scopes.SINGLETON);
        bind(LeadershipTerm.class).in(Scopes.SINGLETON);
        bind(ControllerSet.class).in(Scopes.SINGLETON);
        bind(SharedInformers.class).in(Scopes.SINGLETON);
        bind(KubernetesRuntime.class).in(Scopes.SINGLETON);
        bind(AdmissionTrial.class).in(Scopes.SINGLETON);
        controllerBinder(binder());
    }

    /** Parsed by the injector's loader; a {@link dev.muster.engine.config.ConfigException} here fails the runtime's creation. */
    @Provides
    @Singleton
    static SessionConfig sessionConfig(SchedulerConfigLoader loader, RuntimeOptions options) {
        return loader.parse(options.configSource(), options.configText());
    }

    @Provides
    @Singleton
    static ClusterCache cache(RuntimeOptions options, Clock clock) {
        return new ClusterCache(options.schedulerNames(), clock);
    }

    @Provides
    @Singleton
    static CacheInformers informers(KubernetesClient client, ClusterCache cache, ApiServerReachability reachability) {
        return new CacheInformers(client, cache, reachability);
    }

    /** The process's metrics: the scheduler's, health's and the JVM's (memory, GC, threads, ...), on one registry of its own. */
    private static PrometheusRegistry registry() {
        PrometheusRegistry registry = new PrometheusRegistry();
        JvmMetrics.builder().register(registry);
        return registry;
    }

    @Provides
    @Singleton
    static Health health(RuntimeOptions options, Clock clock, PrometheusRegistry registry) {
        Duration twentyPeriods = options.period().multipliedBy(20);
        Health health = new Health(clock, twentyPeriods.compareTo(MIN_STALL) > 0 ? twentyPeriods : MIN_STALL);
        health.register(registry);
        return health;
    }

    /**
     * The scheduler's writers ask the fence themselves before each request and bound it by the time left, so they
     * take the client itself: through the fenced view every bind would be checked twice.
     */
    @Provides
    @Singleton
    static DecisionWriter writer(@Unfenced KubernetesClient client, ClusterCache cache, Clock clock, WriteFence fence,
            ApiServerReachability reachability) {
        return DecisionWriter.connect(client, cache, BIND_PARALLELISM, clock, fence, reachability);
    }

    @Provides
    @Singleton
    static Binder binder(DecisionWriter writer) {
        return writer.binder();
    }

    /** One view of whether the API server answers, for the writers and the informers, so an outage is logged once. */
    @Provides
    @Singleton
    static ApiServerReachability reachability(KubernetesClient client, Clock clock) {
        return new ApiServerReachability(client.getMasterUrl().toString(), clock);
    }

    /** Asks the API server for its version when nothing has been heard from it for a while, so an idle cluster's outage is said. */
    @Provides
    @Singleton
    static IdleProbe idleProbe(KubernetesClient client, ApiServerReachability reachability, Clock clock) {
        return new IdleProbe(client, reachability, IdleProbe.QUIET, clock);
    }

    /**
     * The client everything but the election uses: with leader election a {@link FencedClient} view of the
     * one client, so that controllers, like the scheduler's writers, write nothing once the lease may have
     * passed to a standby; without, the client itself.
     */
    @Provides
    @Singleton
    static KubernetesClient client(@Unfenced KubernetesClient client, WriteFence fence, RuntimeOptions options) {
        return FencedClient.of(client, fence, path -> options.lease().map(lease -> isLease(path, lease)).orElse(false));
    }

    /** Whether {@code path} is the Lease's own, or its namespace's leases, where it is created. */
    private static boolean isLease(String path, LeaseConfig lease) {
        String leases = "/apis/coordination.k8s.io/v1/namespaces/" + lease.namespace() + "/leases";
        return path.equals(leases) || path.equals(leases + "/" + lease.name());
    }

    /** With leader election, the lease's: nothing is written once it is lost or its renew deadline has passed. */
    @Provides
    @Singleton
    static WriteFence fence(Optional<LeaseFence> leaseFence) {
        return leaseFence.<WriteFence>map(fence -> fence).orElse(WriteFence.NONE);
    }

    @Provides
    @Singleton
    static Optional<LeaseFence> leaseFence(RuntimeOptions options, Clock clock) {
        return options.lease().map(lease -> new LeaseFence(lease, clock));
    }

    @Provides
    @Singleton
    static Scheduler scheduler(ClusterCache cache, SessionConfig config, DecisionWriter writer, RuntimeOptions options, Clock clock,
            SchedulerMetrics metrics, Health health, JobHistoryStore history) {
        return new Scheduler(cache, config, writer, options.period(), clock, metrics.andThen(health), history);
    }

    /**
     * In the scheduler's own namespace unless the options name one: the Lease's with leader election, else the
     * client's (in a cluster, the pod's). Written through the fenced client, so only the leader writes it.
     */
    @Provides
    @Singleton
    static JobHistoryStore history(KubernetesClient client, RuntimeOptions options, Clock clock) {
        String namespace = options.history().namespace()
                .or(() -> options.lease().map(LeaseConfig::namespace))
                .or(() -> Optional.ofNullable(client.getNamespace()))
                .orElse("default");
        return new JobHistoryStore(client, namespace, options.history(), clock);
    }

    @Provides
    @Singleton
    static Optional<LeaderElection> election(@Unfenced KubernetesClient client, RuntimeOptions options, Clock clock, LeadershipTerm term,
            Optional<LeaseFence> fence) {
        return options.lease().map(lease -> new LeaderElection(client, lease, clock, term, fence.orElseThrow()));
    }
}
