package dev.muster.bridge.airflow.api;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.RetryPolicy;
import dev.failsafe.RetryPolicyBuilder;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tries each call again on what may pass by itself ({@link AirflowApiException.Failure#retryable()}:
 * unreachable, timeout, 5xx), with exponential backoff from {@value AirflowSettings#BACKOFF_MIN} to
 * {@value AirflowSettings#BACKOFF_MAX}, at most {@value AirflowSettings#RETRIES} times; the last failure
 * is thrown as it is. Refused credentials and unknown DAGs are not retried.
 */
@ThreadSafe
public final class RetryingAirflowApi implements AirflowApi {
    private static final Logger log = LoggerFactory.getLogger(RetryingAirflowApi.class);

    private final AirflowApi delegate;
    private final FailsafeExecutor<Object> executor;

    public RetryingAirflowApi(AirflowApi delegate, AirflowSettings settings) {
        this.delegate = requireNonNull(delegate, "delegate is null");
        RetryPolicyBuilder<Object> retries = RetryPolicy.builder()
                .handleIf(failure -> failure instanceof AirflowApiException airflow && airflow.failure().retryable())
                .withMaxRetries(settings.retries())
                .onRetry(event -> log.debug("Airflow API: try {} after: {}", event.getAttemptCount() + 1,
                        event.getLastException().getMessage()));
        // failsafe's backoff needs min < max; equal bounds are a fixed delay
        if (settings.backoffMin().equals(settings.backoffMax())) {
            retries.withDelay(settings.backoffMin());
        } else {
            retries.withBackoff(settings.backoffMin(), settings.backoffMax());
        }
        this.executor = Failsafe.with(retries.build());
    }

    @Override
    public String version() {
        return run(delegate::version);
    }

    @Override
    public void checkCredentials() {
        run(() -> {
            delegate.checkCredentials();
            return null;
        });
    }

    @Override
    public List<AirflowTask> tasks(String dagId) {
        return run(() -> delegate.tasks(dagId));
    }

    @Override
    public List<AirflowDagRun> dagRuns(String dagId, int limit) {
        return run(() -> delegate.dagRuns(dagId, limit));
    }

    @Override
    public List<AirflowTaskInstance> taskInstances(String dagId, String runId) {
        return run(() -> delegate.taskInstances(dagId, runId));
    }

    private <T> T run(Supplier<T> call) {
        try {
            return executor.get(call::get);
        } catch (FailsafeException e) {
            // only checked exceptions are wrapped; ours are unchecked and come out as they are
            throw new IllegalStateException("BUG: unexpected checked failure from the Airflow API", e.getCause());
        }
    }
}
