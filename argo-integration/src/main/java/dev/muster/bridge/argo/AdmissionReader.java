package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.Resources;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/** Reads an {@link AdmissionRequest} from a Workflow the {@link WorkflowReader} has read, and its templates. */
public final class AdmissionReader {
    private AdmissionReader() {}

    /**
     * The request of a Workflow as the API server or a cluster dump gives it; empty when the {@link WorkflowReader} refuses
     * it (the gang processing, or the manifest reader, reports that).
     */
    public static Optional<AdmissionRequest> read(JsonNode object) {
        return WorkflowReader.read(object).workflow().map(workflow -> read(object, workflow, TemplateReader.read(object)));
    }

    public static AdmissionRequest read(JsonNode object, Workflow workflow, TemplateReader.Result templates) {
        requireNonNull(object, "object is null");
        requireNonNull(workflow, "workflow is null");
        requireNonNull(templates, "templates is null");
        List<String> problems = new ArrayList<>();
        JsonNode annotations = object.path("metadata").path("annotations");
        Optional<Boolean> admit = Optional.empty();
        JsonNode admitValue = annotations.path(AdmissionAnnotations.ADMIT);
        if (admitValue.isTextual()) {
            switch (admitValue.asText()) {
                case "true" -> admit = Optional.of(true);
                case "false" -> admit = Optional.of(false);
                default -> problems.add("metadata.annotations." + AdmissionAnnotations.ADMIT + ": '" + admitValue.asText()
                        + "' is neither \"true\" nor \"false\"");
            }
        }
        // several queues matter only to a workflow that asks for admission (or whose queue might): the planner decides
        List<String> queueProblems = new ArrayList<>();
        Optional<String> queue = queue(annotations.path(AdmissionAnnotations.QUEUE), workflow, queueProblems);
        if (admit.orElse(false)) {
            problems.addAll(queueProblems);
            problems.addAll(templates.stageProblems());
        }
        JsonNode spec = object.path("spec");
        String entrypoint = spec.path("entrypoint").asText("");
        if (entrypoint.isEmpty()) {
            entrypoint = object.path("status").path("storedWorkflowTemplateSpec").path("entrypoint").asText("");
        }
        WorkflowStages stages = entrypoint.isEmpty() ? new WorkflowStages(ImmutableList.of(), Resources.EMPTY,
                ImmutableList.of("spec.entrypoint is missing")) : StagePlanner.plan(templates.templates(), entrypoint);
        boolean started = workflow.nodes().values().stream().anyMatch(node -> node.type() == NodeType.POD);
        return new AdmissionRequest(workflow.key(), workflow.uid(), created(object), admit, queue, spec.path("podPriorityClassName").asText(""),
                spec.path("suspend").asBoolean(false), started, annotations.has(AdmissionAnnotations.ADMITTED), workflow.isFinished(), stages,
                ImmutableList.copyOf(problems));
    }

    private static Optional<String> queue(JsonNode annotation, Workflow workflow, List<String> problems) {
        if (annotation.isTextual() && !annotation.asText().isEmpty()) {
            return Optional.of(annotation.asText());
        }
        TreeSet<String> named = new TreeSet<>();
        for (Map<String, String> podAnnotations : workflow.podAnnotations().values()) {
            String queue = podAnnotations.get(GangAnnotations.QUEUE);
            if (queue != null && !queue.isEmpty()) {
                named.add(queue);
            }
        }
        if (named.size() > 1) {
            problems.add("metadata.annotations." + AdmissionAnnotations.QUEUE + " is not set and its templates name several queues ("
                    + String.join(", ", named) + ")");
            return Optional.empty();
        }
        return Optional.of(named.isEmpty() ? "default" : named.first());
    }

    private static Instant created(JsonNode object) {
        try {
            return Instant.parse(object.path("metadata").path("creationTimestamp").asText(""));
        } catch (DateTimeParseException e) {
            // the API server always sets it; a hand-made object without one goes last
            return Instant.MAX;
        }
    }
}
