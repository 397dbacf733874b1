package dev.muster.bridge.airflow.api;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether Airflow's API answers, so that the bridge degrades instead of failing: a read that fails
 * gives nothing (the pods are scheduled as plain pods), the first failure after success is reported
 * once, and the first success after failure once more. A 404 means the API answered without knowing
 * the DAG or run: nothing is given, with a debug line, and the API counts as up.
 */
@ThreadSafe
public final class AirflowAvailability {
    private static final Logger log = LoggerFactory.getLogger(AirflowAvailability.class);

    /** Where the two transitions go; by default the log, at WARN and INFO. Called on the reading thread. */
    public interface Reporter {
        void unavailable(AirflowApiException failure);

        void recovered(Duration downFor);
    }

    public static final Reporter LOG = new Reporter() {
        @Override
        public void unavailable(AirflowApiException failure) {
            log.warn("Airflow's pods are scheduled without DAG hints until its API answers: {}", failure.getMessage());
        }

        @Override
        public void recovered(Duration downFor) {
            log.info("Airflow's API answers again after {}; DAG hints resume", downFor);
        }
    };

    private final Clock clock;
    private final Reporter reporter;
    @GuardedBy("this")
    private Instant downSince;
    @GuardedBy("this")
    private AirflowApiException lastFailure;

    public AirflowAvailability(Clock clock, Reporter reporter) {
        this.clock = requireNonNull(clock, "clock is null");
        this.reporter = requireNonNull(reporter, "reporter is null");
    }

    /** Runs one read; empty when it failed (reported as above) or named what the API does not know. */
    public <T> Optional<T> read(String what, Supplier<T> call) {
        T value;
        try {
            value = call.get();
        } catch (AirflowApiException e) {
            if (e.failure() == AirflowApiException.Failure.NOT_FOUND) {
                log.debug("Airflow API does not know {}: {}", what, e.getMessage());
                up();
                return Optional.empty();
            }
            down(e);
            return Optional.empty();
        }
        up();
        return Optional.of(value);
    }

    /** The failure that made the API count as down, while it is down. */
    public synchronized Optional<AirflowApiException> problem() {
        return Optional.ofNullable(lastFailure);
    }

    private void down(AirflowApiException failure) {
        boolean first;
        synchronized (this) {
            first = downSince == null;
            if (first) {
                downSince = clock.instant();
            }
            lastFailure = failure;
        }
        if (first) {
            reporter.unavailable(failure);
        } else {
            log.debug("Airflow API still unavailable: {}", failure.getMessage());
        }
    }

    private void up() {
        Instant since;
        synchronized (this) {
            since = downSince;
            downSince = null;
            lastFailure = null;
        }
        if (since != null) {
            reporter.recovered(Duration.between(since, clock.instant()));
        }
    }
}
