package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import java.util.function.Function;

/** kube-apiserver's columns for pods, as far as a simulated kubelet fills them. */
final class PodColumns {
    private static final String NONE = "<none>";

    private PodColumns() {}

    static ImmutableList<Column> columns(Function<JsonNode, Object> age) {
        return ImmutableList.of(
                Column.string("Ready", 0, PodColumns::ready),
                Column.string("Status", 0, PodColumns::status),
                new Column("Restarts", "string", 0, pod -> "0"),
                Column.string("Age", 0, age),
                Column.string("IP", 1, pod -> text(pod.path("status").path("podIP"))),
                Column.string("Node", 1, pod -> text(pod.path("spec").path("nodeName"))),
                Column.string("Nominated Node", 1, pod -> text(pod.path("status").path("nominatedNodeName"))),
                Column.string("Readiness Gates", 1, pod -> NONE));
    }

    private static Object ready(JsonNode pod) {
        int total = pod.path("spec").path("containers").size();
        int ready = 0;
        for (JsonNode container : pod.path("status").path("containerStatuses")) {
            if (container.path("ready").asBoolean(false)) {
                ready++;
            }
        }
        return ready + "/" + total;
    }

    private static Object status(JsonNode pod) {
        if (!pod.path("metadata").path("deletionTimestamp").asText("").isEmpty()) {
            return "Terminating";
        }
        for (JsonNode container : pod.path("status").path("containerStatuses")) {
            String reason = container.path("state").path("terminated").path("reason").asText("");
            if (!reason.isEmpty()) {
                return reason;
            }
        }
        String phase = pod.path("status").path("phase").asText("");
        return phase.isEmpty() ? "Pending" : phase;
    }

    private static String text(JsonNode value) {
        String text = value.asText("");
        return text.isEmpty() ? NONE : text;
    }
}
