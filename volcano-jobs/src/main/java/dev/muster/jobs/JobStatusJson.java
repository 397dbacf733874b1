package dev.muster.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.api.GoDuration;

/**
 * A Job's {@code status} as the API server takes it (the status subresource), in Volcano's field
 * names; zero counts are left out, as Go's {@code omitempty} does.
 */
public final class JobStatusJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JobStatusJson() {}

    public static ObjectNode write(JobStatus status) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode state = root.putObject("state");
        status.phase().ifPresent(phase -> state.put("phase", phase.wireName()));
        putText(state, "reason", status.reason());
        putText(state, "message", status.message());
        status.lastTransitionTime().ifPresent(time -> state.put("lastTransitionTime", time.toString()));
        putCount(root, "minAvailable", status.minAvailable());
        if (!status.taskStatusCount().isEmpty()) {
            ObjectNode tasks = root.putObject("taskStatusCount");
            status.taskStatusCount().forEach((task, phases) -> {
                ObjectNode byPhase = tasks.putObject(task).putObject("phase");
                phases.forEach((phase, count) -> byPhase.put(phase.wireName(), count));
            });
        }
        PodCounts counts = status.counts();
        putCount(root, "pending", counts.pending());
        putCount(root, "running", counts.running());
        putCount(root, "succeeded", counts.succeeded());
        putCount(root, "failed", counts.failed());
        putCount(root, "terminating", counts.terminating());
        putCount(root, "unknown", counts.unknown());
        putCount(root, "version", status.version());
        putCount(root, "retryCount", status.retryCount());
        status.runningDuration().ifPresent(duration -> root.put("runningDuration", GoDuration.format(duration)));
        if (!status.controlledResources().isEmpty()) {
            status.controlledResources().forEach(root.putObject("controlledResources")::put);
        }
        if (!status.conditions().isEmpty()) {
            ArrayNode conditions = root.putArray("conditions");
            status.conditions().forEach(condition -> conditions.addObject()
                    .put("status", condition.status().wireName())
                    .put("lastTransitionTime", condition.lastTransitionTime().toString()));
        }
        return root;
    }

    private static void putText(ObjectNode node, String field, String value) {
        if (!value.isEmpty()) {
            node.put(field, value);
        }
    }

    private static void putCount(ObjectNode node, String field, int value) {
        if (value != 0) {
            node.put(field, value);
        }
    }
}
