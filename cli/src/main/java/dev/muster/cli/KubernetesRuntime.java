package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.jobs.runtime.JobControllers;
import dev.muster.runtime.binding.DecisionWriter;
import dev.muster.runtime.informers.ClusterInformers;
import dev.muster.runtime.leader.LeaderElection;
import dev.muster.runtime.leader.LeaseConfig;
import dev.muster.runtime.metrics.Health;
import dev.muster.runtime.metrics.SchedulerMetrics;
import dev.muster.runtime.scheduler.Scheduler;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The scheduler wired to one API server: informers into the cache, the loop, and the writers. What
 * {@code muster run} starts, and what an embedded server can start and stop. With a lease, the
 * informers run at once (a standby keeps its cache warm) and the loop only while this replica leads.
 * Given a factory of job controllers, a fresh set runs beside the loop, and only while it runs.
 */
final class KubernetesRuntime {
    static final int BIND_PARALLELISM = 32;
    /** How often to say, while waiting, that the API server cannot be read yet. */
    private static final Duration WARN_EVERY = Duration.ofSeconds(10);
    /** A leader whose loop finishes no cycle for this long (or 20 periods, if longer) is not live. */
    private static final Duration MIN_STALL = Duration.ofMinutes(2);

    private final ClusterInformers informers;
    private final Scheduler scheduler;
    private final SchedulerMetrics metrics;
    private final Health health;
    private final Optional<LeaderElection> election;
    private final Optional<Supplier<JobControllers>> jobControllers;
    /** The job controllers of the current term, while the loop runs. */
    @GuardedBy("this")
    private Optional<JobControllers> runningControllers = Optional.empty();

    KubernetesRuntime(KubernetesClient client, SessionConfig config, Set<String> schedulerNames, Duration period, Clock clock) {
        this(client, config, schedulerNames, period, clock, Optional.empty());
    }

    /** With a lease, schedules only while this replica holds it. */
    KubernetesRuntime(KubernetesClient client, SessionConfig config, Set<String> schedulerNames, Duration period, Clock clock,
            Optional<LeaseConfig> lease) {
        this(client, config, schedulerNames, period, clock, lease, Optional.empty());
    }

    /** With job controllers, made afresh each time the loop starts (each term, with a lease) and stopped with it. */
    KubernetesRuntime(KubernetesClient client, SessionConfig config, Set<String> schedulerNames, Duration period, Clock clock,
            Optional<LeaseConfig> lease, Optional<Supplier<JobControllers>> jobControllers) {
        requireNonNull(client, "client is null");
        requireNonNull(lease, "lease is null");
        this.jobControllers = requireNonNull(jobControllers, "jobControllers is null");
        ClusterCache cache = new ClusterCache(schedulerNames, clock);
        this.informers = new ClusterInformers(client, cache);
        this.metrics = new SchedulerMetrics();
        Duration stallAfter = period.multipliedBy(20).compareTo(MIN_STALL) > 0 ? period.multipliedBy(20) : MIN_STALL;
        this.health = new Health(clock, stallAfter);
        this.scheduler = new Scheduler(cache, config, DecisionWriter.connect(client, cache, BIND_PARALLELISM, clock), period,
                clock, metrics.andThen(health));
        this.election = lease.map(leaseConfig -> new LeaderElection(client, leaseConfig, clock, new LeaderElection.Callbacks() {
            @Override
            public void startedLeading() {
                health.leading(true);
                scheduler.start();
                try {
                    startControllers();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void stoppedLeading() {
                try {
                    stopControllers();
                    scheduler.stop();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    health.leading(false);
                }
            }
        }));
    }

    SchedulerMetrics metrics() {
        return metrics;
    }

    Health health() {
        return health;
    }

    /** Waits, retrying, until the informers have listed the cluster once, then starts the loop or the campaign. */
    void start() throws InterruptedException {
        informers.start(WARN_EVERY);
        health.informersSynced();
        if (election.isPresent()) {
            election.get().start();
        } else {
            health.leading(true);
            scheduler.start();
            startControllers();
        }
    }

    /** Stops the loop after the cycle in progress (then releases the lease, if any), then the informers. */
    void stop() throws InterruptedException {
        if (election.isPresent()) {
            election.get().close();
        } else {
            stopControllers();
            scheduler.stop();
            health.leading(false);
        }
        informers.stop();
    }

    private synchronized void startControllers() throws InterruptedException {
        if (jobControllers.isPresent() && runningControllers.isEmpty()) {
            JobControllers controllers = jobControllers.get().get();
            runningControllers = Optional.of(controllers);
            controllers.start();
        }
    }

    private synchronized void stopControllers() {
        runningControllers.ifPresent(JobControllers::stop);
        runningControllers = Optional.empty();
    }
}
