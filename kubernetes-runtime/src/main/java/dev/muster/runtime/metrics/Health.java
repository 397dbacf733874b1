package dev.muster.runtime.metrics;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.runtime.scheduler.CycleReport;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * Liveness and readiness, as the runtime and the scheduling loop report them.
 *
 * <ul>
 *   <li>Live unless this replica leads and no cycle has finished for {@code stallAfter}: a stuck loop
 *       is restarted by the kubelet, and the lease then passes to the other replica.
 *   <li>Ready once the informers have listed the cluster, whether leading or on standby: a standby
 *       replica is healthy, it just does not schedule.
 * </ul>
 */
@ThreadSafe
public final class Health implements Consumer<CycleReport> {
    private final Clock clock;
    private final Duration stallAfter;

    @GuardedBy("this")
    private boolean synced;

    @GuardedBy("this")
    private boolean leading;

    /** When this replica started leading, or its latest cycle finished, whichever is later. */
    @GuardedBy("this")
    private Instant progress = Instant.EPOCH;

    /** An answer to a probe: an HTTP status and a line of text. */
    public record Status(int code, String text) {
        public Status {
            requireNonNull(text, "text is null");
        }

        public boolean ok() {
            return code == 200;
        }
    }

    public Health(Clock clock, Duration stallAfter) {
        this.clock = requireNonNull(clock, "clock is null");
        this.stallAfter = requireNonNull(stallAfter, "stallAfter is null");
        checkArgument(!stallAfter.isZero() && !stallAfter.isNegative(), "stallAfter must be positive: %s", stallAfter);
    }

    public synchronized void informersSynced() {
        synced = true;
    }

    /** This replica starts or stops scheduling. */
    public synchronized void leading(boolean value) {
        leading = value;
        if (value) {
            progress = clock.instant();
        }
    }

    public synchronized boolean isLeading() {
        return leading;
    }

    public synchronized boolean isSynced() {
        return synced;
    }

    @Override
    public synchronized void accept(CycleReport report) {
        if (report.finished().isAfter(progress)) {
            progress = report.finished();
        }
    }

    public synchronized Status liveness() {
        if (leading) {
            Duration idle = Duration.between(progress, clock.instant());
            if (idle.compareTo(stallAfter) > 0) {
                return new Status(500, "scheduling loop stalled: no cycle finished for " + idle.toSeconds() + "s");
            }
        }
        return new Status(200, "ok");
    }

    public synchronized Status readiness() {
        if (!synced) {
            return new Status(503, "informers not synced");
        }
        return new Status(200, leading ? "ok: leading" : "ok: standby");
    }

    /** Registers the leader and readiness gauges, read at each scrape. */
    public void register(PrometheusRegistry registry) {
        GaugeWithCallback.builder().name("muster_leader").help("1 while this replica holds the lease and schedules.")
                .callback(callback -> callback.call(isLeading() ? 1 : 0)).register(registry);
        GaugeWithCallback.builder().name("muster_informers_synced").help("1 once the informers have listed the cluster.")
                .callback(callback -> callback.call(isSynced() ? 1 : 0)).register(registry);
    }
}
