package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.engine.model.TaskId;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Evicts pods through the Eviction API ({@code policy/v1}, {@code POST pods/{name}/eviction}), which
 * honours PodDisruptionBudgets; where the API server does not serve it, deletes the pod instead.
 */
@ThreadSafe
public final class Evictor {
    private static final Logger log = LoggerFactory.getLogger(Evictor.class);
    private static final int METHOD_NOT_ALLOWED = 405;
    private static final int TOO_MANY_REQUESTS = 429;

    private final RestCalls rest;

    public Evictor(KubernetesClient client, RetryPolicy retry) {
        this(new RestCalls(requireNonNull(client, "client is null"), requireNonNull(retry, "retry is null")));
    }

    Evictor(RestCalls rest) {
        this.rest = requireNonNull(rest, "rest is null");
    }

    /** How an eviction ended. */
    public enum Result {
        /** The API server accepted the eviction (or the delete); the pod is terminating. */
        EVICTED,
        /** A PodDisruptionBudget forbids it now (429); the next cycle decides again. */
        BLOCKED,
        /** The pod is gone already. */
        GONE,
        /** Retries ran out or the server refused. */
        FAILED
    }

    /** Evicts one pod and waits for the answer. */
    public Result evict(TaskId task, String reason) {
        requireNonNull(task, "task is null");
        requireNonNull(reason, "reason is null");
        String pod = "/api/v1/namespaces/" + task.namespace() + "/pods/" + task.name();
        ObjectNode eviction = JsonNodeFactory.instance.objectNode().put("apiVersion", "policy/v1").put("kind", "Eviction");
        eviction.putObject("metadata").put("name", task.name()).put("namespace", task.namespace());
        ApiResponse response = rest.post(pod + "/eviction", eviction.toString()).join();
        if (response.code() == TOO_MANY_REQUESTS) {
            log.debug("eviction blocked pod={} detail=\"{}\"", task, response.describe());
            return Result.BLOCKED;
        }
        boolean notServed = response.code() == METHOD_NOT_ALLOWED
                || (response.outcome() == ApiResponse.Outcome.GONE && rest.get(pod).join().outcome() == ApiResponse.Outcome.DONE);
        if (notServed) {
            // the pod exists but the eviction subresource does not
            response = rest.delete(pod).join();
        }
        Result result = switch (response.outcome()) {
            case DONE -> Result.EVICTED;
            case GONE -> Result.GONE;
            case CONFLICT, RETRY, REJECTED, FENCED -> Result.FAILED;
        };
        if (result == Result.FAILED && response.outcome() != ApiResponse.Outcome.FENCED) {
            log.warn("eviction failed pod={} reason=\"{}\" detail=\"{}\"", task, reason, response.describe());
        } else {
            log.debug("evicted pod={} reason=\"{}\"", task, reason);
        }
        return result;
    }
}
