package dev.muster.engine.model;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;

/**
 * The cluster at one instant, immutable: what one scheduling session works on.
 *
 * @param jobs the jobs whose pods this scheduler owns, by id
 * @param otherTasks pods on nodes that belong to no job of ours (other schedulers, daemons); they hold node resources
 * @param priorityClasses PriorityClass values by name
 */
public record ClusterSnapshot(
        ImmutableSortedMap<NodeName, ClusterNode> nodes,
        ImmutableSortedMap<JobId, Job> jobs,
        ImmutableSortedMap<QueueName, Queue> queues,
        ImmutableList<Task> otherTasks,
        ImmutableMap<String, Integer> priorityClasses,
        ImmutableList<HyperNode> hyperNodes) {
    public ClusterSnapshot {
        nodes = ImmutableSortedMap.copyOf(nodes);
        jobs = ImmutableSortedMap.copyOf(jobs);
        queues = ImmutableSortedMap.copyOf(queues);
        otherTasks = ImmutableList.copyOf(otherTasks);
        priorityClasses = ImmutableMap.copyOf(priorityClasses);
        hyperNodes = ImmutableList.copyOf(hyperNodes);
    }
}
