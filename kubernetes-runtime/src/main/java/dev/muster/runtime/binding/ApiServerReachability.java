package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the API server answers, as every part of the runtime that talks to it sees it: the writers
 * (binds, evictions, statuses, events) and the informers. An outage is logged once, by whichever part
 * meets it first, and its end once, by whichever first gets an answer again; so an API server that
 * is gone is said in the log even when only writes fail (etcd down behind a kube-apiserver whose watch
 * cache still serves the informers), and is not said again per kind, per request or per retry.
 */
@ThreadSafe
public final class ApiServerReachability {
    private static final Logger log = LoggerFactory.getLogger(ApiServerReachability.class);

    private final String server;
    private final Clock clock;
    /** Read without the lock on every answer, so that answers in the usual case cost no contention. */
    private volatile boolean down;

    /** When the API server last answered anything, for {@link IdleProbe}. */
    private volatile Instant lastAnswer;

    @GuardedBy("this")
    private Optional<Instant> downSince = Optional.empty();

    @GuardedBy("this")
    private int outages;

    public ApiServerReachability(String server, Clock clock) {
        this.server = requireNonNull(server, "server is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.lastAnswer = clock.instant();
    }

    /** A request got no answer (refused, reset, timed out) or one saying the server cannot serve it now (502, 503, 504). */
    public void unanswered(String request, String error) {
        requireNonNull(request, "request is null");
        requireNonNull(error, "error is null");
        synchronized (this) {
            if (downSince.isPresent()) {
                return;
            }
            downSince = Optional.of(clock.instant());
            outages++;
            down = true;
        }
        log.warn("the API server does not answer; writes and reads are retried until it does, scheduling goes on from the cache "
                + "server={} request=\"{}\" error=\"{}\"", server, request, error);
    }

    /** A request got an answer from the API server, whatever its status. */
    public void answered() {
        lastAnswer = clock.instant();
        if (!down) {
            return;
        }
        Duration outage;
        synchronized (this) {
            if (downSince.isEmpty()) {
                return;
            }
            outage = Duration.between(downSince.get(), clock.instant());
            downSince = Optional.empty();
            down = false;
        }
        log.info("the API server answers again server={} outageMs={}", server, outage.toMillis());
    }

    public boolean reachable() {
        return !down;
    }

    /** When the API server last answered (at construction, before any request). */
    public Instant lastAnswer() {
        return lastAnswer;
    }

    /** How many outages began since this started. */
    public synchronized int outages() {
        return outages;
    }

    /** Whether an answer of this status means the server cannot serve now rather than a verdict on the request. */
    static boolean unavailable(int code) {
        return code == ApiResponse.NO_ANSWER || code == 502 || code == 503 || code == 504;
    }
}
