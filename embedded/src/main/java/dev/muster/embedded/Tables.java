package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Server-side printing: the {@code meta.k8s.io/v1 Table} kubectl asks for with
 * {@code Accept: ...;as=Table}, built from the object or list the store answered. kubectl lays out
 * nothing itself, so without this {@code kubectl get pods -o wide} would show names and ages only.
 * Pods, nodes, batch/v1 Jobs and apps/v1 workloads get kube-apiserver's columns, custom resources their CRD's printer columns, the rest
 * name and age.
 */
final class Tables {
    private static final Pattern RESOURCE_PATH =
            Pattern.compile("^/(?:api/v1|apis/([^/]+)/[^/]+)(?:/namespaces/[^/]+)?/([^/?]+)(?:/[^/?]+)?(?:\\?.*)?$");

    private final ObjectMapper json;
    private final Clock clock;
    private final Map<String, ImmutableList<Column>> columns = new ConcurrentHashMap<>();

    Tables(ObjectMapper json, Clock clock) {
        this.json = requireNonNull(json, "json is null");
        this.clock = requireNonNull(clock, "clock is null");
        columns.put("/pods", PodColumns.columns(this::age));
        columns.put("batch/jobs", JobColumns.columns(this::age, clock));
        columns.put("batch/cronjobs", JobColumns.cronJobs(this::age, clock));
        columns.put("apps/deployments", WorkloadColumns.deployments(this::age));
        columns.put("apps/replicasets", WorkloadColumns.replicaSets(this::age));
        columns.put("apps/statefulsets", WorkloadColumns.statefulSets(this::age));
        columns.put("/nodes", ImmutableList.of(
                Column.string("Status", 0, Tables::nodeStatus),
                Column.string("Roles", 0, node -> "<none>"),
                Column.string("Age", 0, this::age),
                Column.string("Version", 0, node -> node.path("status").path("nodeInfo").path("kubeletVersion").asText())));
    }

    /** Takes a CRD's printer columns, for its resources' tables. */
    void register(JsonNode crd) {
        String group = crd.path("spec").path("group").asText();
        String plural = crd.path("spec").path("names").path("plural").asText();
        for (JsonNode version : crd.path("spec").path("versions")) {
            ImmutableList.Builder<Column> builder = ImmutableList.builder();
            for (JsonNode definition : version.path("additionalPrinterColumns")) {
                builder.add(Column.printerColumn(definition, this::age));
            }
            ImmutableList<Column> printerColumns = builder.build();
            if (!printerColumns.isEmpty()) {
                columns.put(group + "/" + plural, printerColumns);
            }
        }
    }

    /** The table of what a GET of {@code path} answered, if the path names a resource. */
    Optional<String> table(String path, JsonNode answer) {
        return table(path, answer, true);
    }

    /**
     * The table of one object a watch of {@code path} sends; without its column definitions unless
     * {@code headers}, as kube-apiserver sends them in a watch's first event only.
     */
    Optional<String> row(String path, JsonNode object, boolean headers) {
        return table(path, object, headers);
    }

    private Optional<String> table(String path, JsonNode answer, boolean headers) {
        Matcher matcher = RESOURCE_PATH.matcher(path);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        String key = (matcher.group(1) == null ? "" : matcher.group(1)) + "/" + matcher.group(2);
        List<Column> resourceColumns = columns.getOrDefault(key, ImmutableList.of(Column.string("Age", 0, this::age)));
        ObjectNode table = json.createObjectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        table.putObject("metadata").put("resourceVersion", answer.path("metadata").path("resourceVersion").asText(""));
        if (headers) {
            ArrayNode definitions = table.putArray("columnDefinitions");
            definitions.addObject().put("name", "Name").put("type", "string").put("format", "name").put("priority", 0)
                    .put("description", "");
            for (Column column : resourceColumns) {
                definitions.addObject().put("name", column.name()).put("type", column.type()).put("format", "")
                        .put("priority", column.priority()).put("description", "");
            }
        } else {
            table.putNull("columnDefinitions");
        }
        ArrayNode rows = table.putArray("rows");
        Iterable<JsonNode> objects = answer.has("items") ? answer.path("items") : List.of(answer);
        for (JsonNode object : objects) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            cells.add(object.path("metadata").path("name").asText());
            for (Column column : resourceColumns) {
                cells.addPOJO(column.cell().apply(object));
            }
            ObjectNode partial = row.putObject("object").put("kind", "PartialObjectMetadata").put("apiVersion", "meta.k8s.io/v1");
            partial.set("metadata", object.path("metadata").deepCopy());
        }
        return Optional.of(table.toString());
    }

    private Object age(JsonNode object) {
        String created = object.path("metadata").path("creationTimestamp").asText("");
        try {
            return created.isEmpty() ? "<unknown>" : age(Duration.between(Instant.parse(created), clock.instant()));
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }

    /** As kubectl writes ages: {@code 45s}, {@code 3m20s}, {@code 12m}, {@code 5h3m}, {@code 20h}, {@code 3d}. */
    static String age(Duration age) {
        long seconds = Math.max(0, age.toSeconds());
        if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            return minutes + "m" + (seconds % 60 == 0 ? "" : seconds % 60 + "s");
        }
        if (minutes < 180) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            return hours + "h" + (minutes % 60 == 0 ? "" : minutes % 60 + "m");
        }
        return hours < 48 ? hours + "h" : hours / 24 + "d";
    }

    private static Object nodeStatus(JsonNode node) {
        for (JsonNode condition : node.path("status").path("conditions")) {
            if (condition.path("type").asText().equals("Ready")) {
                return condition.path("status").asText().equals("True") ? "Ready" : "NotReady";
            }
        }
        return "Unknown";
    }
}
