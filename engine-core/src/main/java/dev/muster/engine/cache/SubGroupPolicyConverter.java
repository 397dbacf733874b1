package dev.muster.engine.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.LabelRequirement;
import dev.muster.engine.model.NetworkTopology;
import dev.muster.engine.model.SubGroupPolicy;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a Volcano PodGroup's {@code spec.subGroupPolicy}: each entry's name, {@code subGroupSize},
 * {@code minSubGroups}, {@code labelSelector}, {@code matchLabelKeys} and {@code networkTopology}. A bad
 * entry is reported on the job (which then stays pending) and left out.
 */
final class SubGroupPolicyConverter {
    private static final Set<String> LABEL_SELECTOR_OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

    private SubGroupPolicyConverter() {}

    static ImmutableList<SubGroupPolicy> read(FieldReader reader) {
        ImmutableList.Builder<SubGroupPolicy> policies = ImmutableList.builder();
        ImmutableList<JsonNode> nodes = reader.array("spec.subGroupPolicy");
        Set<String> names = new HashSet<>();
        for (int index = 0; index < nodes.size(); index++) {
            String path = "spec.subGroupPolicy[" + index + "]";
            Optional<SubGroupPolicy> policy = policy(reader, nodes.get(index), path);
            if (policy.isPresent() && !names.add(policy.get().name())) {
                reader.error(path + ".name", "'" + policy.get().name() + "' is used by another subgroup policy");
                continue;
            }
            policy.ifPresent(policies::add);
        }
        return policies.build();
    }

    private static Optional<SubGroupPolicy> policy(FieldReader reader, JsonNode node, String path) {
        if (!reader.isMapOrAbsent(node, path)) {
            return Optional.empty();
        }
        int errorsBefore = reader.errors().size();
        String name = reader.string(node.path("name"), path + ".name").orElse("");
        if (name.isEmpty()) {
            reader.error(path + ".name", "is missing");
        }
        Optional<Integer> size = PodGroupConverter.nonNegative(reader, node.path("subGroupSize"), path + ".subGroupSize");
        int minSubGroups = PodGroupConverter.nonNegative(reader, node.path("minSubGroups"), path + ".minSubGroups").orElse(0);
        JsonNode selector = node.path("labelSelector");
        boolean hasSelector = !FieldReader.absent(selector) && reader.isMapOrAbsent(selector, path + ".labelSelector");
        ImmutableMap<String, String> matchLabels = ImmutableMap.of();
        ImmutableList<LabelRequirement> matchExpressions = ImmutableList.of();
        if (hasSelector) {
            matchLabels = reader.stringMap(selector.path("matchLabels"), path + ".labelSelector.matchLabels");
            String expressionsPath = path + ".labelSelector.matchExpressions";
            matchExpressions = PlacementConverter.requirements(reader, selector.path("matchExpressions"), expressionsPath);
            for (LabelRequirement requirement : matchExpressions) {
                if (!LABEL_SELECTOR_OPERATORS.contains(requirement.operator())) {
                    reader.error(expressionsPath, "'" + requirement.operator() + "' is not one of In, NotIn, Exists, DoesNotExist");
                }
            }
        }
        ImmutableList.Builder<String> keys = ImmutableList.builder();
        ImmutableList<JsonNode> keyNodes = reader.array(node.path("matchLabelKeys"), path + ".matchLabelKeys");
        for (int index = 0; index < keyNodes.size(); index++) {
            reader.string(keyNodes.get(index), path + ".matchLabelKeys[" + index + "]").ifPresent(keys::add);
        }
        Optional<NetworkTopology> topology = PodGroupConverter.networkTopology(reader, node.path("networkTopology"), path + ".networkTopology");
        if (reader.errors().size() > errorsBefore) {
            return Optional.empty();
        }
        return Optional.of(new SubGroupPolicy(name, size, minSubGroups, hasSelector, matchLabels, matchExpressions, keys.build(),
                topology));
    }
}
