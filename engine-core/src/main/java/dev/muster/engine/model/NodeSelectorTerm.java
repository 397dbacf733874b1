package dev.muster.engine.model;

import com.google.common.collect.ImmutableList;
import java.util.Map;

/**
 * One term of required node affinity: all its expressions must hold. {@code matchFields} is checked
 * against the node's fields, of which Kubernetes supports only {@code metadata.name}.
 */
public record NodeSelectorTerm(ImmutableList<LabelRequirement> matchExpressions, ImmutableList<LabelRequirement> matchFields) {
    public NodeSelectorTerm {
        matchExpressions = ImmutableList.copyOf(matchExpressions);
        matchFields = ImmutableList.copyOf(matchFields);
    }

    public boolean matches(Map<String, String> labels, Map<String, String> fields) {
        if (matchExpressions.isEmpty() && matchFields.isEmpty()) {
            // an empty term matches nothing, as in Kubernetes
            return false;
        }
        return matchExpressions.stream().allMatch(requirement -> requirement.matches(labels))
                && matchFields.stream().allMatch(requirement -> requirement.matches(fields));
    }
}
