package dev.muster.engine.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.cache.PodGroupConverter.ConvertedJob;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Task;
import java.time.Instant;
import java.util.Iterator;
import java.util.Optional;

/**
 * Converts Kubernetes' own PodGroup ({@code scheduling.k8s.io/v1alpha2}, the Workload API that
 * kube-scheduler's gang scheduling reads) into a {@link Job} without tasks; its pods join it through
 * their {@code spec.schedulingGroup.podGroupName}.
 *
 * <p>{@code spec.schedulingPolicy} is a union: {@code gang.minCount} (at least 1) is the gang's
 * {@code minMember}; {@code basic} schedules pod by pod, a job of {@code minMember} 1. The API has no
 * queue and no {@code minResources}: the queue is Volcano's {@code scheduling.volcano.sh/queue-name}
 * annotation on the PodGroup, else {@code default}. Nobody writes a phase on it for Muster, so the
 * phase is read from the pods ({@link #phase}).
 *
 * <p>As for the other PodGroups, a bad field keeps the PodGroup, pending, with the problem recorded on
 * its job, so that its pods are neither scheduled alone nor left without a reason. So does a topology
 * constraint ({@code spec.schedulingConstraints.topology}): Muster cannot honour it yet, and placing
 * the gang across domains would break what it asks.
 */
final class WorkloadPodGroupConverter {
    static final String POLICY = "spec.schedulingPolicy";
    static final String MIN_COUNT = POLICY + ".gang.minCount";
    private static final String TOPOLOGY = "spec.schedulingConstraints.topology";
    private static final ImmutableSet<String> POLICIES = ImmutableSet.of("basic", "gang");

    private WorkloadPodGroupConverter() {}

    static ConvertedJob convert(ManifestObject object, PriorityClasses priorityClasses, Problems problems) {
        FieldReader reader = new FieldReader(object, problems);
        JobId id = new JobId(object.namespace(), object.name());
        String uid = reader.string("metadata.uid").filter(text -> !text.isEmpty()).orElse(id.toString());
        ImmutableMap<String, String> annotations = reader.stringMap("metadata.annotations");
        QueueName queue = PodConverter.annotatedQueue(annotations);
        int minMember = minMember(reader);
        String priorityClassName = PodGroupConverter.priorityClassName(reader, priorityClasses);
        refuseTopology(reader);
        Instant created = reader.instant("metadata.creationTimestamp").orElse(Instant.EPOCH);
        Job job = new Job(id, uid, queue, minMember, ImmutableMap.of(), Optional.empty(),
                priorityClasses.jobPriority(priorityClassName), priorityClassName, PodGroupPhase.PENDING, created,
                Optional.empty(), annotations, ImmutableList.of(), ImmutableList.of(), ImmutableList.of());
        for (String error : reader.errors()) {
            job = job.withProblem(error);
        }
        return new ConvertedJob(object, job);
    }

    /**
     * Running once at least {@code minMember} of its pods have been placed, Completed once those have all
     * finished, else Pending, as Volcano's controller would write it for a PodGroup of its own.
     */
    static PodGroupPhase phase(Job job) {
        long scheduled = job.tasks().stream().filter(task -> task.status().isScheduled()).count();
        long finished = job.tasks().stream().map(Task::status).filter(status -> status.isTerminated()).count();
        if (scheduled == 0 || scheduled < job.minMember()) {
            return PodGroupPhase.PENDING;
        }
        return scheduled == finished ? PodGroupPhase.COMPLETED : PodGroupPhase.RUNNING;
    }

    /** {@code gang.minCount}, or 1 for {@code basic}; 1 also when the policy is bad, which keeps the job pending anyway. */
    private static int minMember(FieldReader reader) {
        JsonNode policy = reader.at(POLICY);
        if (FieldReader.absent(policy)) {
            reader.error(POLICY, "is required: exactly one of basic, gang");
            return 1;
        }
        if (!reader.isMapOrAbsent(policy, POLICY)) {
            return 1;
        }
        boolean named = false;
        for (Iterator<String> names = policy.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!POLICIES.contains(name)) {
                reader.error(POLICY + "." + name, "unknown scheduling policy '" + name + "' (known: basic, gang)");
            }
            named = true;
        }
        boolean basic = set(reader, policy.path("basic"), POLICY + ".basic");
        boolean gang = set(reader, policy.path("gang"), POLICY + ".gang");
        if (basic && gang) {
            reader.error(POLICY, "sets both basic and gang; exactly one may be set");
        } else if (!basic && !gang && !named) {
            reader.error(POLICY, "sets no policy; exactly one of basic, gang must be set");
        }
        return gang ? minCount(reader, policy.path("gang").path("minCount")) : 1;
    }

    private static boolean set(FieldReader reader, JsonNode member, String path) {
        return !FieldReader.absent(member) && reader.isMapOrAbsent(member, path);
    }

    private static int minCount(FieldReader reader, JsonNode node) {
        if (FieldReader.absent(node)) {
            reader.error(MIN_COUNT, "is required");
            return 1;
        }
        Optional<Integer> minCount = reader.integer(node, MIN_COUNT);
        if (minCount.isPresent() && minCount.get() < 1) {
            reader.error(MIN_COUNT, minCount.get() + " is less than 1");
            return 1;
        }
        return minCount.orElse(1);
    }

    private static void refuseTopology(FieldReader reader) {
        ImmutableList<JsonNode> constraints = reader.array(TOPOLOGY);
        for (int index = 0; index < constraints.size(); index++) {
            String path = TOPOLOGY + "[" + index + "].key";
            String key = reader.string(constraints.get(index).path("key"), path).orElse("");
            reader.error(path, "Muster does not honour Workload API topology constraints yet (key '" + key
                    + "'); the PodGroup stays pending rather than be placed across domains");
        }
    }
}
