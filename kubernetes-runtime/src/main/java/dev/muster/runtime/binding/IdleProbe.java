package dev.muster.runtime.binding;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.runtime.controller.DaemonThreads;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the API server for {@code /version} whenever nothing has been heard from it for {@code quiet},
 * and tells {@link ApiServerReachability} what came back, so that an outage of an idle cluster is said in
 * the log within about twice {@code quiet}, and its end once the server answers again. Without it only a
 * write or an informer's relist meets an outage; with nothing to write, and fabric8 reconnecting the
 * watches inside its watch manager without telling the informers, a stopped kube-apiserver went
 * unreported for over a minute on a loaded machine (RunCommandRealApiServerTest). One GET per
 * {@code quiet} while nothing else is heard, none while the cluster is busy.
 */
@ThreadSafe
public final class IdleProbe implements AutoCloseable {
    /** How long a silence starts a probe: a fifth of the shortest outage the runtime's tests expect said. */
    public static final Duration QUIET = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(IdleProbe.class);

    private final RestCalls rest;
    private final ApiServerReachability reachability;
    private final Duration quiet;
    private final Clock clock;

    @GuardedBy("this")
    private Optional<ScheduledExecutorService> timer = Optional.empty();

    public IdleProbe(KubernetesClient client, ApiServerReachability reachability, Duration quiet, Clock clock) {
        requireNonNull(client, "client is null");
        this.reachability = requireNonNull(reachability, "reachability is null");
        this.quiet = requireNonNull(quiet, "quiet is null");
        checkArgument(!quiet.isNegative() && !quiet.isZero(), "quiet must be positive: %s", quiet);
        this.clock = requireNonNull(clock, "clock is null");
        // one try a probe, bounded by the quiet period: the next period probes again
        this.rest = new RestCalls(client, new RetryPolicy(1, Duration.ofMillis(100), quiet), WriteFence.NONE, Optional.of(reachability));
    }

    /** Starts looking every {@code quiet}; once. */
    public synchronized void start() {
        checkState(timer.isEmpty(), "the probe runs already");
        ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("muster-api-probe"));
        started.scheduleWithFixedDelay(this::probeIfQuiet, quiet.toMillis(), quiet.toMillis(), TimeUnit.MILLISECONDS);
        timer = Optional.of(started);
    }

    /** Probes if the server has not been heard from for {@code quiet}, or is taken to be down. */
    void probeIfQuiet() {
        if (reachability.reachable() && Duration.between(reachability.lastAnswer(), clock.instant()).compareTo(quiet) < 0) {
            return;
        }
        try {
            // RestCalls tells the reachability of the answer or of its absence
            ApiResponse response = rest.get("/version").join();
            log.debug("probe answered={} detail=\"{}\"", reachability.reachable(), response.describe());
        } catch (RuntimeException e) {
            // a bug, not an outage: the next period tries again
            log.warn("the API server probe failed", e);
        }
    }

    @Override
    public synchronized void close() {
        timer.ifPresent(ScheduledExecutorService::shutdownNow);
        timer = Optional.empty();
    }
}
