package dev.muster.engine.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;

/**
 * The cluster at one instant, immutable: what one scheduling session works on.
 *
 * @param jobs the jobs whose pods this scheduler owns, by id
 * @param otherTasks pods on nodes that belong to no job of ours (other schedulers, daemons); they hold node resources
 * @param priorityClasses PriorityClass values by name
 * @param history the jobs that finished most recently, for plugins that learn from them (empty when none is kept)
 */
public record ClusterSnapshot(
        ImmutableSortedMap<NodeName, ClusterNode> nodes,
        ImmutableSortedMap<JobId, Job> jobs,
        ImmutableSortedMap<QueueName, Queue> queues,
        ImmutableList<Task> otherTasks,
        ImmutableMap<String, Integer> priorityClasses,
        ImmutableList<HyperNode> hyperNodes,
        JobHistory history) {
    public ClusterSnapshot {
        nodes = ImmutableSortedMap.copyOf(nodes);
        jobs = ImmutableSortedMap.copyOf(jobs);
        queues = ImmutableSortedMap.copyOf(queues);
        otherTasks = ImmutableList.copyOf(otherTasks);
        priorityClasses = ImmutableMap.copyOf(priorityClasses);
        hyperNodes = ImmutableList.copyOf(hyperNodes);
        requireNonNull(history, "history is null");
    }

    /** A snapshot without history. */
    public ClusterSnapshot(ImmutableSortedMap<NodeName, ClusterNode> nodes, ImmutableSortedMap<JobId, Job> jobs,
            ImmutableSortedMap<QueueName, Queue> queues, ImmutableList<Task> otherTasks, ImmutableMap<String, Integer> priorityClasses,
            ImmutableList<HyperNode> hyperNodes) {
        this(nodes, jobs, queues, otherTasks, priorityClasses, hyperNodes, JobHistory.EMPTY);
    }

    public ClusterSnapshot withHistory(JobHistory newHistory) {
        return new ClusterSnapshot(nodes, jobs, queues, otherTasks, priorityClasses, hyperNodes, newHistory);
    }
}
