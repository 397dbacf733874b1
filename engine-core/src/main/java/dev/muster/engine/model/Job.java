package dev.muster.engine.model;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.time.Instant;
import java.util.Optional;

/**
 * A job: one PodGroup and its pods, the unit of gang scheduling.
 *
 * @param minMember the gang size: this many tasks must be placed together
 * @param minTaskMember per role, how many tasks of that role the gang needs
 * @param minResources what the gang needs to start, checked at admission; absent means unchecked
 * @param priority the value of the PodGroup's PriorityClass (0 when it has none or an unknown one)
 * @param problems what is wrong with the PodGroup or its pods; a job with problems stays pending
 * @param subGroupPolicies the PodGroup's {@code spec.subGroupPolicy}, which splits the job into subgroups
 */
public record Job(
        JobId id,
        String uid,
        QueueName queue,
        int minMember,
        ImmutableMap<String, Integer> minTaskMember,
        Optional<Resources> minResources,
        int priority,
        String priorityClassName,
        PodGroupPhase phase,
        Instant created,
        Optional<NetworkTopology> networkTopology,
        ImmutableMap<String, String> annotations,
        ImmutableList<Task> tasks,
        ImmutableList<String> problems,
        ImmutableList<SubGroupPolicy> subGroupPolicies) {
    public Job {
        requireNonNull(id, "id is null");
        requireNonNull(uid, "uid is null");
        requireNonNull(queue, "queue is null");
        checkArgument(minMember >= 0, "job %s: minMember is negative: %s", id, minMember);
        minTaskMember = ImmutableMap.copyOf(minTaskMember);
        requireNonNull(minResources, "minResources is null");
        requireNonNull(priorityClassName, "priorityClassName is null");
        requireNonNull(phase, "phase is null");
        requireNonNull(created, "created is null");
        requireNonNull(networkTopology, "networkTopology is null");
        annotations = ImmutableMap.copyOf(annotations);
        tasks = ImmutableList.copyOf(tasks);
        problems = ImmutableList.copyOf(problems);
        subGroupPolicies = ImmutableList.copyOf(subGroupPolicies);
    }

    /** A job without subgroup policies. */
    public Job(JobId id, String uid, QueueName queue, int minMember, ImmutableMap<String, Integer> minTaskMember,
            Optional<Resources> minResources, int priority, String priorityClassName, PodGroupPhase phase, Instant created,
            Optional<NetworkTopology> networkTopology, ImmutableMap<String, String> annotations, ImmutableList<Task> tasks,
            ImmutableList<String> problems) {
        this(id, uid, queue, minMember, minTaskMember, minResources, priority, priorityClassName, phase, created,
                networkTopology, annotations, tasks, problems, ImmutableList.of());
    }

    public Job withTasks(ImmutableList<Task> newTasks) {
        return new Job(id, uid, queue, minMember, minTaskMember, minResources, priority, priorityClassName, phase,
                created, networkTopology, annotations, newTasks, problems, subGroupPolicies);
    }

    public Job withProblem(String problem) {
        return new Job(id, uid, queue, minMember, minTaskMember, minResources, priority, priorityClassName, phase,
                created, networkTopology, annotations, tasks,
                ImmutableList.<String>builder().addAll(problems).add(problem).build(), subGroupPolicies);
    }

    public Job withPriority(int newPriority) {
        return new Job(id, uid, queue, minMember, minTaskMember, minResources, newPriority, priorityClassName, phase,
                created, networkTopology, annotations, tasks, problems, subGroupPolicies);
    }

    public Job withMinResources(Optional<Resources> newMinResources) {
        return new Job(id, uid, queue, minMember, minTaskMember, newMinResources, priority, priorityClassName, phase,
                created, networkTopology, annotations, tasks, problems, subGroupPolicies);
    }

    public Job withSubGroupPolicies(ImmutableList<SubGroupPolicy> policies) {
        return new Job(id, uid, queue, minMember, minTaskMember, minResources, priority, priorityClassName, phase,
                created, networkTopology, annotations, tasks, problems, policies);
    }
}
