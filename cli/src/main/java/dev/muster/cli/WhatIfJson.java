package dev.muster.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobOrigin;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * The what-if decisions as one JSON object:
 * {@code {"binds": {"ns/pod": "node"}, "evictions": ["ns/pod"], "evictionDetails": {"ns/pod": {"action": "reclaim",
 * "podGroup": "ns/name", "queue": "q", "reason": "..."}}, "pipelined": {"ns/pod": "node"},
 * "podGroups": {"ns/name": {"phase": "Inqueue", "reason": "...", "reservation": "...", "origin": {...}}}}}; the details
 * say which action evicts each pod, from which PodGroup and queue, and why; a reservation says what is held for the
 * PodGroup beyond its placed pods, such as the room of a Spark application's executors; an origin is where the PodGroup
 * comes from, as its {@link dev.muster.engine.model.OriginAnnotations} say ({@code system}, {@code workflow}, {@code run},
 * {@code step}, {@code stepIndexes}, each when named, and the {@code description} the table's reason ends with).
 */
final class WhatIfJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private WhatIfJson() {}

    static String render(ClusterSnapshot snapshot, SessionResult result) {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode binds = root.putObject("binds");
        result.binds().forEach((task, node) -> binds.put(task.toString(), node.value()));
        ArrayNode evictions = root.putArray("evictions");
        ObjectNode details = root.putObject("evictionDetails");
        for (SessionResult.Eviction eviction : result.evictions()) {
            evictions.add(eviction.task().toString());
            details.putObject(eviction.task().toString()).put("action", eviction.action()).put("podGroup", eviction.job().toString())
                    .put("queue", eviction.queue().value()).put("reason", eviction.reason());
        }
        ObjectNode pipelined = root.putObject("pipelined");
        result.pipelined().forEach((task, node) -> pipelined.put(task.toString(), node.value()));
        ObjectNode podGroups = root.putObject("podGroups");
        result.jobs().forEach((job, outcome) -> {
            ObjectNode entry = podGroups.putObject(job.toString());
            entry.put("phase", outcome.phase().text());
            outcome.reason().ifPresent(reason -> entry.put("reason", reason));
            outcome.reservation().ifPresent(reservation -> entry.put("reservation", reservation));
            Optional.ofNullable(snapshot.jobs().get(job)).flatMap(known -> JobOrigin.of(known.annotations()))
                    .ifPresent(origin -> origin(entry.putObject("origin"), origin));
        });
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #render(ClusterSnapshot, SessionResult)} with a {@code workflows} object (by workflow) when workflows take part in admission. */
    static String render(ClusterSnapshot snapshot, SessionResult result, List<WorkflowAdmissions.Row> workflowRows) {
        String rendered = render(snapshot, result);
        if (workflowRows.isEmpty()) {
            return rendered;
        }
        try {
            ObjectNode root = (ObjectNode) MAPPER.readTree(rendered);
            ObjectNode workflows = root.putObject("workflows");
            workflowRows.forEach(row -> workflows.putObject(row.workflow()).put("queue", row.queue()).put("need", row.need())
                    .put("admission", row.admission()));
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void origin(ObjectNode node, JobOrigin origin) {
        origin.system().ifPresent(system -> node.put("system", system));
        origin.workflow().ifPresent(workflow -> node.put("workflow", workflow));
        origin.run().ifPresent(run -> node.put("run", run));
        origin.step().ifPresent(step -> node.put("step", step));
        origin.stepIndexes().ifPresent(indexes -> node.put("stepIndexes", indexes));
        node.put("description", origin.describe());
    }
}
