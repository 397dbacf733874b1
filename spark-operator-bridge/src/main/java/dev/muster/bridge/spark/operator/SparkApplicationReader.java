package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a SparkApplication into a {@link SparkApplication}: the Spark confs the spark-operator v2.5.2
 * will pass to {@code spark-submit} for the fields that size its pods, in the order its
 * {@code buildSparkSubmitArgs} writes them (later ones win, as with {@code --conf} on one command line):
 * {@code spec.memoryOverheadFactor}, then {@code spec.sparkConf}, then the driver's and the executor's
 * fields, then {@code spec.dynamicAllocation}. A field of the wrong type is a problem naming the field;
 * the other fields are still read.
 */
public final class SparkApplicationReader {
    private SparkApplicationReader() {}

    /** What was read, and what could not be. */
    public record Read(SparkApplication application, ImmutableList<FieldProblem> problems) {
        public Read {
            requireNonNull(application, "application is null");
            problems = ImmutableList.copyOf(problems);
        }
    }

    public static Read read(JsonNode object) {
        requireNonNull(object, "object is null");
        JsonNode metadata = object.path("metadata");
        JsonNode spec = object.path("spec");
        List<FieldProblem> problems = new ArrayList<>();
        Map<String, String> confs = new LinkedHashMap<>();
        Map<String, String> fields = new LinkedHashMap<>();
        Writer writer = new Writer(confs, fields, problems);
        writer.text(spec, "spec", "memoryOverheadFactor", "spark.kubernetes.memoryOverheadFactor");
        JsonNode sparkConf = spec.path("sparkConf");
        if (sparkConf.isObject()) {
            for (Map.Entry<String, JsonNode> entry : sparkConf.properties()) {
                confs.put(entry.getKey(), entry.getValue().asText());
                fields.remove(entry.getKey());
            }
        } else if (!sparkConf.isMissingNode() && !sparkConf.isNull()) {
            problems.add(new FieldProblem("spec.sparkConf", "not a map of strings: " + sparkConf));
        }
        JsonNode driver = spec.path("driver");
        writer.integer(driver, "spec.driver", "cores", "spark.driver.cores");
        writer.text(driver, "spec.driver", "coreRequest", "spark.kubernetes.driver.request.cores");
        writer.text(driver, "spec.driver", "memory", "spark.driver.memory");
        writer.text(driver, "spec.driver", "memoryOverhead", "spark.driver.memoryOverhead");
        JsonNode executor = spec.path("executor");
        writer.integer(executor, "spec.executor", "instances", "spark.executor.instances");
        writer.integer(executor, "spec.executor", "cores", "spark.executor.cores");
        writer.text(executor, "spec.executor", "coreRequest", "spark.kubernetes.executor.request.cores");
        writer.text(executor, "spec.executor", "memory", "spark.executor.memory");
        writer.text(executor, "spec.executor", "memoryOverhead", "spark.executor.memoryOverhead");
        JsonNode dynamic = spec.path("dynamicAllocation");
        if (dynamic.path("enabled").asBoolean(false)) {
            confs.put("spark.dynamicAllocation.enabled", "true");
            fields.put("spark.dynamicAllocation.enabled", "spec.dynamicAllocation.enabled");
            writer.integer(dynamic, "spec.dynamicAllocation", "initialExecutors", "spark.dynamicAllocation.initialExecutors");
            writer.integer(dynamic, "spec.dynamicAllocation", "minExecutors", "spark.dynamicAllocation.minExecutors");
            writer.integer(dynamic, "spec.dynamicAllocation", "maxExecutors", "spark.dynamicAllocation.maxExecutors");
        }
        JsonNode options = spec.path("batchSchedulerOptions");
        SparkApplication application = new SparkApplication(metadata.path("namespace").asText(""), metadata.path("name").asText(""),
                metadata.path("uid").asText(""), text(spec.path("batchScheduler")), !spec.path("mode").asText("cluster").equals("client"),
                spec.path("type").asText("Scala"), ImmutableMap.copyOf(confs), ImmutableMap.copyOf(fields), text(options.path("queue")), text(options.path("priorityClassName")),
                options.path("resources").isObject() && options.path("resources").size() > 0,
                object.path("status").path("applicationState").path("state").asText(""));
        return new Read(application, ImmutableList.copyOf(problems));
    }

    private static Optional<String> text(JsonNode node) {
        return node.isTextual() && !node.asText().isEmpty() ? Optional.of(node.asText()) : Optional.empty();
    }

    /** Writes one spec field as the conf the operator makes of it. */
    private record Writer(Map<String, String> confs, Map<String, String> fields, List<FieldProblem> problems) {
        void text(JsonNode parent, String path, String field, String conf) {
            JsonNode value = parent.path(field);
            if (value.isMissingNode() || value.isNull()) {
                return;
            }
            if (!value.isTextual() || value.asText().isEmpty()) {
                problems.add(new FieldProblem(path + "." + field, "not a non-empty string: " + value));
                return;
            }
            put(conf, value.asText(), path + "." + field);
        }

        void integer(JsonNode parent, String path, String field, String conf) {
            JsonNode value = parent.path(field);
            if (value.isMissingNode() || value.isNull()) {
                return;
            }
            if (!value.isIntegralNumber()) {
                problems.add(new FieldProblem(path + "." + field, "not a whole number: " + value));
                return;
            }
            put(conf, value.asText(), path + "." + field);
        }

        private void put(String conf, String value, String field) {
            confs.put(conf, value);
            fields.put(conf, field);
        }
    }
}
