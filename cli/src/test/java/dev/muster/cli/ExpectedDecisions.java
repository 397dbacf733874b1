package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.topology.HyperNodeTree;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Compares what {@code what-if --output json} decided with a case's {@code expected.json}, field by
 * field as the conformance README defines them, and names every difference. A field this class does not
 * know is a difference too, so an expectation can never be silently left unchecked.
 */
final class ExpectedDecisions {
    /** Facts about the case, not decisions: they are read by people, not compared. */
    private static final Set<String> DESCRIPTIONS = Set.of("source", "tags", "orderSensitive", "notes");
    private static final Set<String> CHECKED = Set.of("binds", "bindsExact", "bindCount", "evictions", "evictionCount", "pipelined",
            "podGroupPhases", "bindNumsPerHyperNodeSorted");

    private final JsonNode expected;
    private final Map<String, String> podGroups;
    private final HyperNodeTree hyperNodes;

    /**
     * @param podGroups which PodGroup ({@code ns/name}) each pod ({@code ns/name}) belongs to
     * @param snapshot the case's cluster, for its nodes and hypernodes
     */
    ExpectedDecisions(JsonNode expected, Map<String, String> podGroups, ClusterSnapshot snapshot) {
        this.expected = requireNonNull(expected, "expected is null");
        this.podGroups = Map.copyOf(podGroups);
        this.hyperNodes = HyperNodeTree.build(snapshot.nodes().values(), snapshot.hyperNodes());
    }

    List<String> differences(JsonNode actual) {
        List<String> differences = new ArrayList<>();
        expected.fieldNames().forEachRemaining(field -> {
            if (!DESCRIPTIONS.contains(field) && !CHECKED.contains(field)) {
                differences.add("expected.json has '" + field + "', which this runner does not know how to check");
            }
        });
        Map<String, String> actualBinds = textMap(actual.path("binds"));
        checkBinds(actualBinds, differences);
        checkEvictions(sortedTexts(actual.path("evictions")), differences);
        checkPipelined(textMap(actual.path("pipelined")), differences);
        checkPhases(actual.path("podGroups"), differences);
        checkBindsPerHyperNode(actualBinds, differences);
        return differences;
    }

    private void checkBinds(Map<String, String> actualBinds, List<String> differences) {
        if (expected.path("bindsExact").asBoolean(true)) {
            Map<String, String> expectedBinds = textMap(expected.path("binds"));
            if (!expectedBinds.equals(actualBinds)) {
                differences.add("binds: expected " + expectedBinds + " but was " + actualBinds);
            }
        } else if (expected.path("bindCount").asInt() != actualBinds.size()) {
            differences.add("bind count: expected " + expected.path("bindCount").asInt() + " but was " + actualBinds.size() + " " + actualBinds);
        }
    }

    private void checkEvictions(List<String> actualEvictions, List<String> differences) {
        List<String> expectedEvictions = sortedTexts(expected.path("evictions"));
        if (!expectedEvictions.equals(actualEvictions)) {
            differences.add("evictions: expected " + expectedEvictions + " but was " + actualEvictions);
        }
        if (expected.has("evictionCount") && expected.path("evictionCount").asInt() != actualEvictions.size()) {
            differences.add("eviction count: expected " + expected.path("evictionCount").asInt() + " but was " + actualEvictions.size());
        }
    }

    /** Each expected job has at least one pipelined task, and every one of its pipelined tasks is on one of the listed nodes. */
    private void checkPipelined(Map<String, String> actualPipelined, List<String> differences) {
        for (Iterator<Map.Entry<String, JsonNode>> entries = expected.path("pipelined").fields(); entries.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = entries.next();
            Set<String> nodes = new HashSet<>(sortedTexts(entry.getValue()));
            Map<String, String> ofJob = new TreeMap<>();
            actualPipelined.forEach((task, node) -> {
                if (entry.getKey().equals(podGroups.get(task))) {
                    ofJob.put(task, node);
                }
            });
            if (ofJob.isEmpty()) {
                differences.add("pipelined: expected a task of " + entry.getKey() + " on one of " + nodes + " but none was: " + actualPipelined);
            }
            ofJob.forEach((task, node) -> {
                if (!nodes.contains(node)) {
                    differences.add("pipelined: " + task + " of " + entry.getKey() + " on " + node + ", expected one of " + nodes);
                }
            });
        }
    }

    private void checkPhases(JsonNode actualPodGroups, List<String> differences) {
        for (Iterator<Map.Entry<String, JsonNode>> entries = expected.path("podGroupPhases").fields(); entries.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = entries.next();
            String phase = actualPodGroups.path(entry.getKey()).path("phase").asText("<absent>");
            if (!phase.equals(entry.getValue().asText())) {
                differences.add("phase of " + entry.getKey() + ": expected " + entry.getValue().asText() + " but was " + phase);
            }
        }
    }

    /**
     * Volcano's {@code CheckBindInHyperNode}: how many binds went to each lowest-tier hypernode, sorted;
     * a node under no hypernode of that tier counts under the empty name, as upstream's lookup returns "".
     */
    private void checkBindsPerHyperNode(Map<String, String> actualBinds, List<String> differences) {
        if (!expected.has("bindNumsPerHyperNodeSorted")) {
            return;
        }
        List<Integer> expectedCounts = new ArrayList<>();
        expected.path("bindNumsPerHyperNodeSorted").forEach(count -> expectedCounts.add(count.asInt()));
        Map<String, Integer> perHyperNode = new TreeMap<>();
        actualBinds.values().forEach(node -> perHyperNode.merge(hyperNodes.lowestTierHyperNodeOf(new NodeName(node)).orElse(""), 1, Integer::sum));
        List<Integer> actualCounts = new ArrayList<>(perHyperNode.values());
        Collections.sort(actualCounts);
        if (!expectedCounts.equals(actualCounts)) {
            differences.add("binds per lowest-tier hypernode: expected " + expectedCounts + " but was " + actualCounts + " " + perHyperNode
                    + " from " + actualBinds);
        }
    }

    private static Map<String, String> textMap(JsonNode node) {
        Map<String, String> result = new TreeMap<>();
        node.fields().forEachRemaining(entry -> result.put(entry.getKey(), entry.getValue().asText()));
        return result;
    }

    private static List<String> sortedTexts(JsonNode node) {
        List<String> result = new ArrayList<>();
        node.forEach(element -> result.add(element.asText()));
        Collections.sort(result);
        return result;
    }
}
