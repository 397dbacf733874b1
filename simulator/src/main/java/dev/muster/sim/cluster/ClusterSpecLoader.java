package dev.muster.sim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Quantities;
import dev.muster.engine.model.Resources;
import dev.muster.engine.yaml.YamlDocument;
import dev.muster.engine.yaml.YamlDocuments;
import dev.muster.sim.SimulationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads a cluster file. Every problem is reported at once, with its path:
 * <pre>
 * pools:
 *   - name: gpu                 # node names are gpu-000, gpu-001, ...
 *     count: 64
 *     allocatable: {cpu: 48, memory: 448Gi, nvidia.com/gpu: 8}
 *     labels: {accelerator: v100}   # optional
 *     rackSize: 16                  # optional, default 16: label topology.muster.dev/rack
 *     rackPrefix: dc                # optional, default the pool's name: racks are dc-rack-0, dc-rack-1, ...,
 *                                   # shared with the other pools of the same prefix
 *     maxPods: 110                  # optional, default 110
 * </pre>
 * Quantities are Kubernetes quantities: cpu in cores ({@code 500m} allowed), memory in bytes with
 * suffixes, any other resource as a count (held in milli-units, as the engine counts them).
 */
public final class ClusterSpecLoader {
    private static final Set<String> POOL_FIELDS = Set.of("name", "count", "allocatable", "labels", "rackSize", "maxPods", "rackPrefix");

    private ClusterSpecLoader() {}

    public static ClusterSpec load(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new SimulationException("cluster file " + path + " does not exist", e);
        } catch (IOException e) {
            throw new SimulationException("cannot read cluster file " + path + ": " + e.getMessage(), e);
        }
        return parse(path.toString(), bytes);
    }

    public static ClusterSpec parse(String source, String text) {
        return parse(source, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Read as manifests are read (aliases resolved, strict UTF-8, errors with line and column; see {@link YamlDocuments}). */
    private static ClusterSpec parse(String source, byte[] bytes) {
        JsonNode root = null;
        for (YamlDocument document : YamlDocuments.read(source, bytes)) {
            if (document.error().isPresent()) {
                throw new SimulationException(source + ": " + document.error().get().describe());
            }
            if (root == null && document.tree().isPresent()) {
                root = document.tree().get();
            }
        }
        List<String> problems = new ArrayList<>();
        List<NodePool> pools = new ArrayList<>();
        JsonNode poolNodes = root == null ? null : root.get("pools");
        if (poolNodes == null || !poolNodes.isArray() || poolNodes.isEmpty()) {
            problems.add("pools: a non-empty list of node pools is required");
        } else {
            for (int i = 0; i < poolNodes.size(); i++) {
                readPool("pools[" + i + "]", poolNodes.get(i), problems).ifPresent(pools::add);
            }
        }
        if (!problems.isEmpty()) {
            throw new SimulationException(source + ": " + problems.size() + (problems.size() == 1 ? " problem" : " problems")
                    + System.lineSeparator() + "  " + String.join(System.lineSeparator() + "  ", problems));
        }
        return new ClusterSpec(ImmutableList.copyOf(pools));
    }

    private static Optional<NodePool> readPool(String path, JsonNode pool, List<String> problems) {
        int before = problems.size();
        if (!pool.isObject()) {
            problems.add(path + ": a pool must be a mapping");
            return Optional.empty();
        }
        for (Iterator<String> names = pool.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!POOL_FIELDS.contains(field)) {
                problems.add(path + ": unknown field '" + field + "' (known: allocatable, count, labels, maxPods, name, rackPrefix, rackSize)");
            }
        }
        String name = pool.path("name").asText("");
        if (!name.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")) {
            problems.add(path + ".name: '" + name + "' is not a DNS label (lower case letters, digits, '-')");
        }
        int count = positiveInt(path + ".count", pool.get("count"), -1, problems);
        String rackPrefix = pool.path("rackPrefix").asText(name);
        if (pool.has("rackPrefix") && !rackPrefix.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")) {
            problems.add(path + ".rackPrefix: '" + rackPrefix + "' is not a DNS label (lower case letters, digits, '-')");
        }
        int rackSize = positiveInt(path + ".rackSize", pool.get("rackSize"), 16, problems);
        int maxPods = positiveInt(path + ".maxPods", pool.get("maxPods"), 110, problems);
        Resources allocatable = resources(path + ".allocatable", pool.get("allocatable"), problems);
        ImmutableMap.Builder<String, String> labels = ImmutableMap.builder();
        JsonNode labelNode = pool.get("labels");
        if (labelNode != null) {
            if (!labelNode.isObject()) {
                problems.add(path + ".labels: must be a mapping of strings");
            } else {
                labelNode.fields().forEachRemaining(entry -> labels.put(entry.getKey(), entry.getValue().asText()));
            }
        }
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new NodePool(name, count, allocatable, labels.buildKeepingLast(), rackSize, maxPods, rackPrefix));
    }

    private static int positiveInt(String path, JsonNode node, int defaultValue, List<String> problems) {
        if (node == null) {
            if (defaultValue < 0) {
                problems.add(path + ": required");
            }
            return defaultValue;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber() || node.asInt() <= 0) {
            problems.add(path + ": must be a positive integer, not '" + node.asText() + "'");
            return defaultValue;
        }
        return node.asInt();
    }

    private static Resources resources(String path, JsonNode node, List<String> problems) {
        if (node == null || !node.isObject() || node.isEmpty()) {
            problems.add(path + ": a mapping of resource quantities is required, e.g. {cpu: 48, memory: 448Gi}");
            return Resources.EMPTY;
        }
        Map<String, Double> quantities = new TreeMap<>();
        node.fields().forEachRemaining(entry -> {
            try {
                double value = Quantities.parse(entry.getValue().asText()).doubleValue();
                if (value < 0) {
                    problems.add(path + "." + entry.getKey() + ": '" + entry.getValue().asText() + "' is negative");
                    return;
                }
                quantities.put(entry.getKey(), entry.getKey().equals(Resources.MEMORY) ? value : value * 1000);
            } catch (IllegalArgumentException e) {
                problems.add(path + "." + entry.getKey() + ": " + e.getMessage());
            }
        });
        return Resources.of(quantities);
    }
}
