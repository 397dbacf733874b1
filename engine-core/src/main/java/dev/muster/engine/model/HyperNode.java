package dev.muster.engine.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * A network topology domain ({@code topology.volcano.sh/v1alpha1} HyperNode): tier 1 is the lowest,
 * e.g. a ToR switch; members are nodes or other hypernodes, matched by name, regex or labels.
 */
public record HyperNode(String name, int tier, String tierName, ImmutableList<Member> members) {
    public HyperNode {
        requireNonNull(name, "name is null");
        requireNonNull(tierName, "tierName is null");
        members = ImmutableList.copyOf(members);
    }

    /** One member selector: exactly one of exact name, regex or labels is set. */
    public record Member(boolean hyperNode, String exactName, String regex, com.google.common.collect.ImmutableMap<String, String> labels) {
        public Member {
            requireNonNull(exactName, "exactName is null");
            requireNonNull(regex, "regex is null");
            labels = com.google.common.collect.ImmutableMap.copyOf(labels);
        }
    }
}
