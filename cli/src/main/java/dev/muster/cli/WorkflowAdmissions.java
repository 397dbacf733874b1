package dev.muster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.argo.AdmissionAnnotations;
import dev.muster.bridge.argo.AdmissionPlan;
import dev.muster.bridge.argo.AdmissionPlanner;
import dev.muster.bridge.argo.AdmissionReader;
import dev.muster.bridge.argo.AdmissionRequest;
import dev.muster.bridge.argo.ArgoApi;
import dev.muster.engine.cache.ManifestFiles;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.Queue;
import dev.muster.runtime.admission.AdmissionTrial;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the Argo bridge's workflow admission would do with the Argo Workflows of a cluster dump: which
 * waiting workflow its queue admits now and which waits, and why, asked of the same enqueue action as
 * the rest of {@code what-if} ({@link AdmissionTrial}). A document that is not a readable Workflow is
 * left to the manifest reader, which reports it.
 */
final class WorkflowAdmissions {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One workflow that takes part: its name, queue, need and what admission does with it. */
    record Row(String workflow, String queue, String need, String admission) {}

    private WorkflowAdmissions() {}

    static ImmutableList<Row> of(List<Path> paths, ClusterSnapshot snapshot, SessionConfig config, Clock clock) {
        List<AdmissionRequest> requests = new ArrayList<>();
        for (Path file : ManifestFiles.expand(paths)) {
            for (JsonNode document : documents(file)) {
                for (JsonNode object : document.path("kind").asText("").endsWith("List") ? document.path("items") : List.of(document)) {
                    if (object.path("apiVersion").asText("").equals(ArgoApi.API_VERSION) && object.path("kind").asText("").equals(ArgoApi.WORKFLOW_KIND)) {
                        AdmissionReader.read(object).ifPresent(requests::add);
                    }
                }
            }
        }
        Map<String, Boolean> queues = new HashMap<>();
        for (Queue queue : snapshot.queues().values()) {
            queues.put(queue.name().value(), AdmissionAnnotations.queueOptsIn(queue.annotations()));
        }
        AdmissionPlan plan = AdmissionPlanner.plan(requests, queues);
        ImmutableList.Builder<Row> rows = ImmutableList.builder();
        plan.released().forEach(notice -> rows.add(row(notice.workflow(), "resumed without admission: " + notice.message())));
        plan.ignored().forEach(notice -> rows.add(row(notice.workflow(), "runs without admission: " + notice.message())));
        plan.reservations().forEach(reservation -> requests.stream()
                .filter(request -> request.key().namespace().equals(reservation.job().id().namespace())
                        && reservation.taskLabels().get(ArgoApi.WORKFLOW_LABEL).equals(request.key().name()))
                .forEach(request -> rows.add(row(request, "admitted; holds its queue until it ends"))));
        if (!plan.waiting().isEmpty()) {
            ImmutableMap<JobId, AdmissionTrial.Verdict> verdicts = AdmissionTrial.admit(snapshot, plan.candidates(), plan.reservations(), config,
                    clock);
            plan.waiting().forEach((id, request) -> rows.add(row(request, verdicts.get(id) instanceof AdmissionTrial.Waits waits
                    ? "waits: " + waits.reason() : "would be admitted and resumed")));
        }
        return rows.build();
    }

    private static Row row(AdmissionRequest request, String admission) {
        return new Row(request.key().toString(), request.queue().orElse(""), request.stages().describe(), admission);
    }

    private static List<JsonNode> documents(Path file) {
        byte[] bytes = ManifestFiles.read(file);
        ObjectMapper mapper = file.toString().endsWith(".json") ? JSON : YAML;
        try (MappingIterator<JsonNode> documents = mapper.readerFor(JsonNode.class).readValues(bytes)) {
            List<JsonNode> read = new ArrayList<>();
            while (documents.hasNextValue()) {
                read.add(documents.nextValue());
            }
            return read;
        } catch (IOException | RuntimeException e) {
            // the manifest reader reports a document it cannot parse, with its place
            return List.of();
        }
    }
}
