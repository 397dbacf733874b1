package dev.muster.engine.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.model.LabelRequirement;
import dev.muster.engine.model.NodeSelectorTerm;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.PreferredSchedulingTerm;
import dev.muster.engine.model.Toleration;
import java.util.Optional;

/** Reads where a pod may go: its nodeSelector, required node affinity and tolerations; and its preferred node affinity. */
final class PlacementConverter {
    private static final String TERMS =
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
    private static final String PREFERRED =
            "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution";
    private static final ImmutableSet<String> SELECTOR_OPERATORS =
            ImmutableSet.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt");
    private static final ImmutableSet<String> TOLERATION_OPERATORS = ImmutableSet.of("Equal", "Exists");

    private PlacementConverter() {}

    static Placement read(FieldReader reader) {
        ImmutableMap<String, String> nodeSelector = reader.stringMap("spec.nodeSelector");
        ImmutableList.Builder<NodeSelectorTerm> terms = ImmutableList.builder();
        ImmutableList<JsonNode> termNodes = reader.array(TERMS);
        for (int index = 0; index < termNodes.size(); index++) {
            JsonNode term = termNodes.get(index);
            String path = TERMS + "[" + index + "]";
            if (reader.isMapOrAbsent(term, path)) {
                terms.add(new NodeSelectorTerm(
                        requirements(reader, term.path("matchExpressions"), path + ".matchExpressions"),
                        requirements(reader, term.path("matchFields"), path + ".matchFields")));
            }
        }
        return new Placement(nodeSelector, terms.build(), tolerations(reader)).withPreferredNodeAffinity(preferred(reader));
    }

    private static ImmutableList<PreferredSchedulingTerm> preferred(FieldReader reader) {
        ImmutableList.Builder<PreferredSchedulingTerm> terms = ImmutableList.builder();
        ImmutableList<JsonNode> nodes = reader.array(PREFERRED);
        for (int index = 0; index < nodes.size(); index++) {
            JsonNode node = nodes.get(index);
            String path = PREFERRED + "[" + index + "]";
            if (!reader.isMapOrAbsent(node, path)) {
                continue;
            }
            Optional<Integer> weight = reader.integer(node.path("weight"), path + ".weight");
            JsonNode preference = node.path("preference");
            if (weight.isEmpty() || weight.get() < 1 || weight.get() > 100) {
                reader.error(path + ".weight", "'" + weight.map(String::valueOf).orElse("") + "' is not a weight from 1 to 100");
            } else if (reader.isMapOrAbsent(preference, path + ".preference")) {
                terms.add(new PreferredSchedulingTerm(weight.get(), new NodeSelectorTerm(
                        requirements(reader, preference.path("matchExpressions"), path + ".preference.matchExpressions"),
                        requirements(reader, preference.path("matchFields"), path + ".preference.matchFields"))));
            }
        }
        return terms.build();
    }

    static ImmutableList<LabelRequirement> requirements(FieldReader reader, JsonNode list, String listPath) {
        ImmutableList.Builder<LabelRequirement> requirements = ImmutableList.builder();
        ImmutableList<JsonNode> nodes = reader.array(list, listPath);
        for (int index = 0; index < nodes.size(); index++) {
            JsonNode node = nodes.get(index);
            String path = listPath + "[" + index + "]";
            if (!reader.isMapOrAbsent(node, path)) {
                continue;
            }
            Optional<String> key = reader.string(node.path("key"), path + ".key");
            String operator = reader.string(node.path("operator"), path + ".operator").orElse("");
            ImmutableList.Builder<String> values = ImmutableList.builder();
            ImmutableList<JsonNode> valueNodes = reader.array(node.path("values"), path + ".values");
            for (int value = 0; value < valueNodes.size(); value++) {
                reader.string(valueNodes.get(value), path + ".values[" + value + "]").ifPresent(values::add);
            }
            if (key.isEmpty()) {
                reader.error(path + ".key", "is missing");
            } else if (!SELECTOR_OPERATORS.contains(operator)) {
                reader.error(path + ".operator", "'" + operator + "' is not one of " + String.join(", ", SELECTOR_OPERATORS));
            } else {
                requirements.add(new LabelRequirement(key.get(), operator, values.build()));
            }
        }
        return requirements.build();
    }

    private static ImmutableList<Toleration> tolerations(FieldReader reader) {
        ImmutableList.Builder<Toleration> tolerations = ImmutableList.builder();
        ImmutableList<JsonNode> nodes = reader.array("spec.tolerations");
        for (int index = 0; index < nodes.size(); index++) {
            JsonNode node = nodes.get(index);
            String path = "spec.tolerations[" + index + "]";
            if (!reader.isMapOrAbsent(node, path)) {
                continue;
            }
            String key = reader.string(node.path("key"), path + ".key").orElse("");
            // an unset operator means Equal
            String operator = reader.string(node.path("operator"), path + ".operator")
                    .filter(text -> !text.isEmpty())
                    .orElse("Equal");
            String value = reader.string(node.path("value"), path + ".value").orElse("");
            String effect = reader.string(node.path("effect"), path + ".effect").orElse("");
            if (!TOLERATION_OPERATORS.contains(operator)) {
                reader.error(path + ".operator", "'" + operator + "' is not one of Equal, Exists");
            } else {
                tolerations.add(new Toleration(key, operator, value, effect));
            }
        }
        return tolerations.build();
    }
}
