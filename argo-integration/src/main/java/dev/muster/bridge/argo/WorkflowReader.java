package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a Workflow strictly: each field the bridge needs must have the type Argo's CRD gives it
 * ({@code manifests/base/crds/full/argoproj.io_workflows.yaml}), and a field of the wrong type, or a node
 * type Argo does not define, is a problem naming the field. Fields the bridge does not need are not
 * looked at, so a newer Argo's additions do not stop it.
 *
 * <p>Argo's CRD marks a node's {@code id}, {@code name} and {@code type} as required. The minimal CRD,
 * which is what Argo installs by default, validates none of this, so the reader is the only check.
 */
public final class WorkflowReader {
    /** A read Workflow, or why it could not be read (each problem names its field). */
    public record Result(Optional<Workflow> workflow, ImmutableList<String> problems) {
        public Result {
            requireNonNull(workflow, "workflow is null");
            problems = ImmutableList.copyOf(problems);
        }
    }

    private final List<String> problems = new ArrayList<>();

    private WorkflowReader() {}

    public static Result read(JsonNode object) {
        requireNonNull(object, "object is null");
        return new WorkflowReader().readWorkflow(object);
    }

    private Result readWorkflow(JsonNode object) {
        String namespace = requiredString(object.path("metadata"), "namespace", "metadata.namespace");
        String name = requiredString(object.path("metadata"), "name", "metadata.name");
        String uid = requiredString(object.path("metadata"), "uid", "metadata.uid");
        Map<String, ImmutableMap<String, String>> annotations = new LinkedHashMap<>();
        JsonNode stored = object.path("status").path("storedWorkflowTemplateSpec");
        // the workflow's own templates win over those of the WorkflowTemplate it was made from
        readTemplates(stored.path("templates"), "status.storedWorkflowTemplateSpec.templates", annotations);
        readTemplates(object.path("spec").path("templates"), "spec.templates", annotations);
        ImmutableMap<String, WorkflowNode> nodes = readNodes(object.path("status"));
        String phase = optionalString(object.path("status"), "phase", "status.phase");
        String lineage = lineage(object, name);
        if (!problems.isEmpty()) {
            return new Result(Optional.empty(), ImmutableList.copyOf(problems));
        }
        return new Result(Optional.of(new Workflow(namespace, name, uid, lineage, phase, ImmutableMap.copyOf(annotations), nodes)),
                ImmutableList.of());
    }

    private String lineage(JsonNode object, String name) {
        String template = optionalString(object.path("spec").path("workflowTemplateRef"), "name", "spec.workflowTemplateRef.name");
        if (!template.isEmpty()) {
            boolean cluster = object.path("spec").path("workflowTemplateRef").path("clusterScope").asBoolean(false);
            return (cluster ? "ClusterWorkflowTemplate/" : "WorkflowTemplate/") + template;
        }
        String prefix = optionalString(object.path("metadata"), "generateName", "metadata.generateName");
        return prefix.isEmpty() ? "name/" + name : "generateName/" + prefix;
    }

    private void readTemplates(JsonNode templates, String path, Map<String, ImmutableMap<String, String>> annotations) {
        if (templates.isMissingNode() || templates.isNull()) {
            return;
        }
        if (!templates.isArray()) {
            problems.add(path + ": expected an array, got " + templates.getNodeType());
            return;
        }
        for (int index = 0; index < templates.size(); index++) {
            JsonNode template = templates.get(index);
            String name = requiredString(template, "name", path + "[" + index + "].name");
            annotations.put(name, stringMap(template.path("metadata").path("annotations"), path + "[" + index + "].metadata.annotations"));
        }
    }

    private ImmutableMap<String, WorkflowNode> readNodes(JsonNode status) {
        JsonNode nodes = status.path("nodes");
        if (nodes.isMissingNode() || nodes.isNull() || nodes.isEmpty()) {
            if (!status.path("compressedNodes").asText("").isEmpty() || !status.path("offloadNodeStatusVersion").asText("").isEmpty()) {
                // TODO(#14): read compressed and offloaded node status
                problems.add("status.nodes: compressed or offloaded (status.compressedNodes, status.offloadNodeStatusVersion); not read");
            }
            return ImmutableMap.of();
        }
        if (!nodes.isObject()) {
            problems.add("status.nodes: expected an object, got " + nodes.getNodeType());
            return ImmutableMap.of();
        }
        ImmutableMap.Builder<String, WorkflowNode> read = ImmutableMap.builder();
        nodes.fields().forEachRemaining(entry -> readNode(entry.getKey(), entry.getValue()).ifPresent(node -> read.put(entry.getKey(), node)));
        return read.buildKeepingLast();
    }

    private Optional<WorkflowNode> readNode(String key, JsonNode node) {
        String path = "status.nodes." + key;
        String id = requiredString(node, "id", path + ".id");
        String name = requiredString(node, "name", path + ".name");
        String typeName = requiredString(node, "type", path + ".type");
        Optional<NodeType> type = NodeType.fromArgo(typeName);
        if (type.isEmpty() && !typeName.isEmpty()) {
            problems.add(path + ".type: '" + typeName + "' is not a node type of Argo's");
        }
        if (!id.isEmpty() && !id.equals(key)) {
            problems.add(path + ".id: '" + id + "' differs from its key");
        }
        String template = optionalString(node, "templateName", path + ".templateName");
        String phase = optionalString(node, "phase", path + ".phase");
        ImmutableList<String> children = stringList(node.path("children"), path + ".children");
        String boundary = optionalString(node, "boundaryID", path + ".boundaryID");
        Optional<Instant> startedAt = time(node, "startedAt", path);
        Optional<Instant> finishedAt = time(node, "finishedAt", path);
        return type.map(nodeType -> new WorkflowNode(id, name, nodeType, template, phase, children, boundary, startedAt, finishedAt));
    }

    private Optional<Instant> time(JsonNode node, String field, String path) {
        String text = optionalString(node, field, path + "." + field);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            problems.add(path + "." + field + ": '" + text + "' is not an RFC 3339 time");
            return Optional.empty();
        }
    }

    private String requiredString(JsonNode parent, String field, String path) {
        JsonNode value = parent.path(field);
        if (value.isMissingNode() || value.isNull()) {
            problems.add(path + ": missing");
            return "";
        }
        return text(value, path);
    }

    private String optionalString(JsonNode parent, String field, String path) {
        JsonNode value = parent.path(field);
        return value.isMissingNode() || value.isNull() ? "" : text(value, path);
    }

    private String text(JsonNode value, String path) {
        if (!value.isTextual()) {
            problems.add(path + ": expected a string, got " + value.getNodeType());
            return "";
        }
        return value.asText();
    }

    private ImmutableList<String> stringList(JsonNode value, String path) {
        if (value.isMissingNode() || value.isNull()) {
            return ImmutableList.of();
        }
        if (!value.isArray()) {
            problems.add(path + ": expected an array, got " + value.getNodeType());
            return ImmutableList.of();
        }
        ImmutableList.Builder<String> items = ImmutableList.builder();
        for (int index = 0; index < value.size(); index++) {
            items.add(text(value.get(index), path + "[" + index + "]"));
        }
        return items.build();
    }

    private ImmutableMap<String, String> stringMap(JsonNode value, String path) {
        if (value.isMissingNode() || value.isNull()) {
            return ImmutableMap.of();
        }
        if (!value.isObject()) {
            problems.add(path + ": expected an object, got " + value.getNodeType());
            return ImmutableMap.of();
        }
        ImmutableMap.Builder<String, String> entries = ImmutableMap.builder();
        value.fields().forEachRemaining(entry -> entries.put(entry.getKey(), text(entry.getValue(), path + "." + entry.getKey())));
        return entries.buildKeepingLast();
    }
}
