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
 *
 * <p>{@code spec.driver.gpu} and {@code spec.executor.gpu} ({@code {name, quantity}}) are not confs: the
 * operator's webhook ({@code internal/webhook/sparkpod_defaulter.go}, {@code addGPU}) sets them as a
 * limit on the Spark container of each driver or executor pod, replacing a limit of that name Spark set,
 * and skips one with an empty name or a quantity not above 0. Such a one is a warning (the pods get no
 * GPU, so none is counted; the application is still completed); a field of the wrong type is a problem.
 */
public final class SparkApplicationReader {
    private SparkApplicationReader() {}

    /**
     * What was read, and what could not be.
     *
     * @param problems bad input the application cannot be completed with
     * @param warnings bad input the operator skips (so does the bridge), reported but not stopping anything
     */
    public record Read(SparkApplication application, ImmutableList<FieldProblem> problems, ImmutableList<FieldProblem> warnings) {
        public Read {
            requireNonNull(application, "application is null");
            problems = ImmutableList.copyOf(problems);
            warnings = ImmutableList.copyOf(warnings);
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
        List<FieldProblem> warnings = new ArrayList<>();
        ImmutableMap<String, Long> driverLimits = gpu(driver, "spec.driver", problems, warnings);
        ImmutableMap<String, Long> executorLimits = gpu(executor, "spec.executor", problems, warnings);
        Optional<String> sparkConfigMap = text(spec.path("sparkConfigMap"));
        JsonNode options = spec.path("batchSchedulerOptions");
        SparkApplication application = new SparkApplication(metadata.path("namespace").asText(""), metadata.path("name").asText(""),
                metadata.path("uid").asText(""), text(spec.path("batchScheduler")), !spec.path("mode").asText("cluster").equals("client"),
                spec.path("type").asText("Scala"), ImmutableMap.copyOf(confs), ImmutableMap.copyOf(fields), text(options.path("queue")), text(options.path("priorityClassName")),
                options.path("resources").isObject() && options.path("resources").size() > 0, driverLimits, executorLimits,
                sparkConfigMap,
                object.path("status").path("applicationState").path("state").asText(""), scheduledBy(metadata));
        return new Read(application, ImmutableList.copyOf(problems), ImmutableList.copyOf(warnings));
    }

    /** A pod's {@code gpu} field as the limit the webhook sets, empty when it sets none. */
    private static ImmutableMap<String, Long> gpu(JsonNode pod, String path, List<FieldProblem> problems, List<FieldProblem> warnings) {
        JsonNode gpu = pod.path("gpu");
        if (gpu.isMissingNode() || gpu.isNull()) {
            return ImmutableMap.of();
        }
        String field = path + ".gpu";
        if (!gpu.isObject()) {
            problems.add(new FieldProblem(field, "not an object {name, quantity}: " + gpu));
            return ImmutableMap.of();
        }
        JsonNode name = gpu.path("name");
        JsonNode quantity = gpu.path("quantity");
        if (!name.isMissingNode() && !name.isNull() && !name.isTextual()) {
            problems.add(new FieldProblem(field + ".name", "not a string: " + name));
            return ImmutableMap.of();
        }
        if (!quantity.isMissingNode() && !quantity.isNull() && !quantity.isIntegralNumber()) {
            problems.add(new FieldProblem(field + ".quantity", "not a whole number: " + quantity));
            return ImmutableMap.of();
        }
        String resource = name.asText("");
        long count = quantity.asLong(0);
        if (resource.isEmpty()) {
            warnings.add(new FieldProblem(field + ".name", "empty; the operator's webhook then adds no GPU to the pods, so none is counted"));
            return ImmutableMap.of();
        }
        if (!resource.contains("/")) {
            warnings.add(new FieldProblem(field + ".name", "'" + resource + "' is not an extended resource name such as nvidia.com/gpu;"
                    + " it is not counted"));
            return ImmutableMap.of();
        }
        if (count <= 0) {
            warnings.add(new FieldProblem(field + ".quantity", count + " is not above 0; the operator's webhook then adds no GPU to the"
                    + " pods, so none is counted"));
            return ImmutableMap.of();
        }
        return ImmutableMap.of(resource, count);
    }

    /** The owner reference to a ScheduledSparkApplication, if it is one of its runs. */
    private static Optional<SparkApplication.ScheduledBy> scheduledBy(JsonNode metadata) {
        for (JsonNode owner : metadata.path("ownerReferences")) {
            if (owner.path("apiVersion").asText("").equals(SparkOperatorApi.API_VERSION)
                    && owner.path("kind").asText("").equals(SparkOperatorApi.SCHEDULED_KIND)
                    && !owner.path("name").asText("").isEmpty() && !owner.path("uid").asText("").isEmpty()) {
                return Optional.of(new SparkApplication.ScheduledBy(owner.path("name").asText(), owner.path("uid").asText()));
            }
        }
        return Optional.empty();
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
