package dev.muster.engine.model;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One entry of a PodGroup's {@code spec.subGroupPolicy}: the pods it selects are split into subgroups,
 * one per distinct value of the {@code matchLabelKeys} labels; each subgroup is a gang of
 * {@code subGroupSize} with its own network topology, and the job needs {@code minSubGroups} of them.
 *
 * @param subGroupSize the gang size of each subgroup; absent means 1, as in Volcano
 * @param minSubGroups how many subgroups must be ready for the job to be (0: no minimum)
 * @param matchLabels the label selector's {@code matchLabels}
 * @param matchExpressions the label selector's {@code matchExpressions}
 * @param hasSelector whether a label selector is given at all (an empty one selects every pod)
 */
public record SubGroupPolicy(
        String name,
        Optional<Integer> subGroupSize,
        int minSubGroups,
        boolean hasSelector,
        ImmutableMap<String, String> matchLabels,
        ImmutableList<LabelRequirement> matchExpressions,
        ImmutableList<String> matchLabelKeys,
        Optional<NetworkTopology> networkTopology) {
    public SubGroupPolicy {
        requireNonNull(name, "name is null");
        requireNonNull(subGroupSize, "subGroupSize is null");
        checkArgument(minSubGroups >= 0, "subGroupPolicy %s: minSubGroups is negative: %s", name, minSubGroups);
        matchLabels = ImmutableMap.copyOf(matchLabels);
        matchExpressions = ImmutableList.copyOf(matchExpressions);
        matchLabelKeys = ImmutableList.copyOf(matchLabelKeys);
        requireNonNull(networkTopology, "networkTopology is null");
    }

    /**
     * The values that name a pod's subgroup under this policy, Volcano's {@code getSubJobMatchValues}:
     * empty when the selector does not select the pod or a match label is missing or blank (the pod
     * then goes to the job's default subgroup), and also empty when no match label keys are given.
     */
    public List<String> matchValues(Map<String, String> labels) {
        requireNonNull(labels, "labels is null");
        if (hasSelector) {
            boolean selected = labels.entrySet().containsAll(matchLabels.entrySet())
                    && matchExpressions.stream().allMatch(requirement -> requirement.matches(labels));
            if (!selected) {
                return List.of();
            }
        }
        List<String> values = new ArrayList<>();
        for (String key : matchLabelKeys) {
            String value = labels.get(key);
            if (value == null || value.isEmpty()) {
                return List.of();
            }
            values.add(value);
        }
        return values;
    }
}
