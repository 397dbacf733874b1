package dev.muster.bridge.kubeflow;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSortedMap;
import java.time.Instant;
import java.util.Optional;

/**
 * What the bridge reads of a TFJob or PyTorchJob: its identity, replicas per replica type (the
 * operator's default of 1 filled in), {@code runPolicy.schedulingPolicy}, the elastic range of a
 * PyTorchJob, whether it is suspended or finished, and the controller its {@code runPolicy.managedBy} names.
 */
public record TrainingJob(
        TrainingKind kind,
        String namespace,
        String name,
        String uid,
        Instant created,
        ImmutableSortedMap<String, Integer> replicas,
        SchedulingPolicy schedulingPolicy,
        Optional<ElasticRange> elastic,
        boolean suspended,
        Optional<String> suspendedByMuster,
        boolean finished,
        ManagedBy managedBy) {
    public TrainingJob {
        requireNonNull(kind, "kind is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(uid, "uid is null");
        requireNonNull(created, "created is null");
        replicas = ImmutableSortedMap.copyOf(requireNonNull(replicas, "replicas is null"));
        requireNonNull(schedulingPolicy, "schedulingPolicy is null");
        requireNonNull(elastic, "elastic is null");
        requireNonNull(suspendedByMuster, "suspendedByMuster is null");
        requireNonNull(managedBy, "managedBy is null");
    }

    /**
     * {@code runPolicy.schedulingPolicy}; each field absent when the job leaves it out.
     *
     * @param minResources the resource list as written (names to quantities); a copy is kept and a copy is returned
     */
    public record SchedulingPolicy(Optional<Integer> minAvailable, Optional<String> queue, Optional<String> priorityClass,
            Optional<Integer> scheduleTimeoutSeconds, Optional<ObjectNode> minResources) {
        public static final SchedulingPolicy NONE = new SchedulingPolicy(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());

        public SchedulingPolicy {
            requireNonNull(minAvailable, "minAvailable is null");
            requireNonNull(queue, "queue is null");
            requireNonNull(priorityClass, "priorityClass is null");
            requireNonNull(scheduleTimeoutSeconds, "scheduleTimeoutSeconds is null");
            minResources = requireNonNull(minResources, "minResources is null").map(ObjectNode::deepCopy);
        }

        @Override
        public Optional<ObjectNode> minResources() {
            return minResources.map(ObjectNode::deepCopy);
        }
    }

    /** A PyTorchJob's {@code elasticPolicy.minReplicas} and {@code maxReplicas}. */
    public record ElasticRange(int minReplicas, int maxReplicas) {
        public ElasticRange {
            checkArgument(minReplicas >= 0 && minReplicas <= maxReplicas, "bad elastic range: %s..%s", minReplicas, maxReplicas);
        }
    }

    public String displayName() {
        return kind.kind() + " " + namespace + "/" + name;
    }

    /** The sum of replicas over all replica types: the operator's {@code minMember} without {@code minAvailable}. */
    public int totalReplicas() {
        return replicas.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The gang's size as the operator computes it: {@code minAvailable}, else the total replicas. */
    public int minMember() {
        return schedulingPolicy.minAvailable().orElse(totalReplicas());
    }

    /**
     * An elastic PyTorchJob's gang at its minimum: the replicas of every type but Worker, and
     * {@code elasticPolicy.minReplicas} Workers; the operator sizes its PodGroup at the maximum (all
     * replicas), so the job would wait for room it does not need. Absent when {@code minAvailable} is
     * set (the user's gang size wins) or the job is not elastic.
     */
    public Optional<Integer> elasticMinimum() {
        if (elastic.isEmpty() || schedulingPolicy.minAvailable().isPresent()) {
            return Optional.empty();
        }
        int workers = replicas.getOrDefault("Worker", 0);
        return Optional.of(totalReplicas() - workers + Math.min(workers, elastic.get().minReplicas()));
    }

    /** The gang Muster schedules: an elastic job at its minimum, any other as the operator sizes it. */
    public int gangMinimum() {
        return elasticMinimum().orElse(minMember());
    }
}
