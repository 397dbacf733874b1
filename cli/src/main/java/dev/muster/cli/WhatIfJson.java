package dev.muster.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.framework.SessionResult;
import java.io.UncheckedIOException;

/**
 * The what-if decisions as one JSON object:
 * {@code {"binds": {"ns/pod": "node"}, "evictions": ["ns/pod"], "evictionDetails": {"ns/pod": {"action": "reclaim",
 * "podGroup": "ns/name", "queue": "q", "reason": "..."}}, "pipelined": {"ns/pod": "node"},
 * "podGroups": {"ns/name": {"phase": "Inqueue", "reason": "...", "reservation": "..."}}}}; the details say which action
 * evicts each pod, from which PodGroup and queue, and why; a reservation says what is held for the PodGroup beyond its
 * placed pods, such as the room of a Spark application's executors.
 */
final class WhatIfJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private WhatIfJson() {}

    static String render(SessionResult result) {
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
        });
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
