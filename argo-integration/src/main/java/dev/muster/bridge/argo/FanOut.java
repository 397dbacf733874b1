package dev.muster.bridge.argo;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * The members of one template under one StepGroup or DAG TaskGroup node: the pods that start together
 * when the group starts.
 *
 * @param groupNodeId the StepGroup's or TaskGroup's node id
 * @param members one entry per expanded step or task, in the order the group lists them
 */
public record FanOut(String groupNodeId, String groupNodeName, String template, ImmutableList<Member> members) {
    /**
     * One expanded step or task.
     *
     * @param nodeId the step's or task's node: a Pod node, or the Retry node above its attempts
     * @param podNodeIds the Pod nodes that run it so far: one, or one per attempt under a Retry node
     */
    public record Member(String nodeId, ImmutableList<String> podNodeIds) {
        public Member {
            requireNonNull(nodeId, "nodeId is null");
            podNodeIds = ImmutableList.copyOf(podNodeIds);
        }
    }

    public FanOut {
        requireNonNull(groupNodeId, "groupNodeId is null");
        requireNonNull(groupNodeName, "groupNodeName is null");
        requireNonNull(template, "template is null");
        members = ImmutableList.copyOf(members);
        checkArgument(!members.isEmpty(), "fan-out %s of template %s has no member", groupNodeId, template);
    }

    public ImmutableList<String> podNodeIds() {
        return members.stream().flatMap(member -> member.podNodeIds().stream()).collect(ImmutableList.toImmutableList());
    }
}
