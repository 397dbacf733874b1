package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets {@code PodScheduled=False} on a pod of Muster's that fails validation, with reason
 * {@value ValidationEvents#INVALID_SPEC} and the problems as message, as kube-scheduler sets it on a pod
 * it cannot place. Not kube-scheduler's reason {@code Unschedulable}: cluster autoscalers read that as
 * "needs a node", and this pod needs a fix instead. A JSON merge patch replaces the whole list of
 * conditions, so the pod is read first, its other conditions are kept, and the write carries the
 * version read (a pod changed meanwhile answers 409, and the condition is written next cycle).
 */
final class InvalidPodCondition {
    private static final Logger log = LoggerFactory.getLogger(InvalidPodCondition.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POD_SCHEDULED = "PodScheduled";

    private final RestCalls rest;
    private final Clock clock;

    InvalidPodCondition(RestCalls rest, Clock clock) {
        this.rest = requireNonNull(rest, "rest is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Writes the condition; the answer tells whether it was written. */
    CompletableFuture<Boolean> write(String namespace, String name, String message) {
        String path = "/api/v1/namespaces/" + namespace + "/pods/" + name;
        return rest.get(path).thenCompose(current -> {
            if (current.outcome() != ApiResponse.Outcome.DONE) {
                return CompletableFuture.completedFuture(current);
            }
            JsonNode pod;
            try {
                pod = JSON.readTree(current.body());
            } catch (JsonProcessingException e) {
                return CompletableFuture.completedFuture(new ApiResponse(ApiResponse.NO_ANSWER, "the pod is not JSON: " + e.getMessage()));
            }
            ObjectNode patch = JSON.createObjectNode();
            patch.putObject("metadata").set("resourceVersion", pod.path("metadata").path("resourceVersion"));
            patch.putObject("status").set("conditions", conditions(pod.path("status").path("conditions"), message));
            return rest.mergePatch(path + "/status", patch.toString());
        }).thenApply(response -> {
            if (response.outcome() != ApiResponse.Outcome.DONE) {
                log.debug("pod condition not written pod={}/{} detail=\"{}\"", namespace, name, response.describe());
                return false;
            }
            return true;
        });
    }

    /** The pod's conditions with PodScheduled replaced (or added); its transition time kept when it was False already. */
    private ArrayNode conditions(JsonNode current, String message) {
        ArrayNode conditions = JSON.createArrayNode();
        String transition = DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
        for (JsonNode condition : current) {
            if (condition.path("type").asText().equals(POD_SCHEDULED)) {
                if (condition.path("status").asText().equals("False") && condition.hasNonNull("lastTransitionTime")) {
                    transition = condition.path("lastTransitionTime").asText();
                }
            } else {
                conditions.add(condition);
            }
        }
        conditions.addObject()
                .put("type", POD_SCHEDULED)
                .put("status", "False")
                .put("reason", ValidationEvents.INVALID_SPEC)
                .put("message", message)
                .put("lastTransitionTime", transition);
        return conditions;
    }
}
