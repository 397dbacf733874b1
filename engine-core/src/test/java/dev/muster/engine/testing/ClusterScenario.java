package dev.muster.engine.testing;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.HyperNode;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NetworkTopology;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.SubGroupPolicy;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Builds a cluster snapshot for scheduling tests in a few lines:
 *
 * <pre>{@code
 * ClusterScenario.builder()
 *         .node("n1", cpu(4))
 *         .queue("ml", 1)
 *         .job("ml/train", "ml", 3, cpu(2), 3)
 *         .build();
 * }</pre>
 */
public final class ClusterScenario {
    private ClusterScenario() {}

    public static Builder builder() {
        return new Builder();
    }

    public static Resources cpu(double cores) {
        return Resources.of(cores * 1000, 0);
    }

    public static Resources cpuMemory(double cores, double gibibytes) {
        return Resources.of(cores * 1000, gibibytes * (1L << 30));
    }

    public static Resources gpu(double cores, double gibibytes, int gpus) {
        return cpuMemory(cores, gibibytes).withScalar(Resources.GPU, gpus * 1000.0);
    }

    /** Accumulates nodes, queues and jobs; creation times follow the order of the calls. */
    public static final class Builder {
        private final Map<NodeName, ClusterNode> nodes = new TreeMap<>();
        private final Map<QueueName, Queue> queues = new TreeMap<>();
        private final Map<JobId, JobSpec> jobs = new LinkedHashMap<>();
        private final List<HyperNode> hyperNodes = new ArrayList<>();
        private long tick;

        private Instant next() {
            return Instant.parse("2026-01-01T00:00:00Z").plusSeconds(tick++);
        }

        public Builder node(String name, Resources allocatable) {
            return node(name, allocatable, 110);
        }

        public Builder node(String name, Resources allocatable, int maxPods) {
            NodeName nodeName = new NodeName(name);
            nodes.put(nodeName, new ClusterNode(nodeName, allocatable, allocatable, maxPods, ImmutableMap.of(), ImmutableList.of(), false, true));
            return this;
        }

        public Builder node(ClusterNode node) {
            nodes.put(node.name(), node);
            return this;
        }

        public Builder queue(String name, int weight) {
            return queue(name, weight, Optional.empty());
        }

        public Builder queue(String name, int weight, Optional<Resources> capability) {
            QueueName queueName = new QueueName(name);
            queues.put(queueName, new Queue(queueName, name, weight, capability, Resources.EMPTY, Optional.empty(), Optional.empty(),
                    0, true, QueueState.OPEN, next(), ImmutableMap.of()));
            return this;
        }

        public Builder queue(Queue queue) {
            queues.put(queue.name(), queue);
            return this;
        }

        /** A job of {@code pending} pending tasks named {@code <job>-<index>}, in the given phase. */
        public Builder job(String id, String queue, int minMember, Resources perTask, int pending) {
            return job(id, queue, minMember, perTask, pending, PodGroupPhase.INQUEUE, 0);
        }

        public Builder job(String id, String queue, int minMember, Resources perTask, int pending, PodGroupPhase phase, int priority) {
            JobId jobId = JobId.parse(id);
            checkArgument(!jobs.containsKey(jobId), "job %s defined twice", id);
            JobSpec spec = new JobSpec(jobId, new QueueName(queue), minMember, phase, priority, next());
            for (int i = 0; i < pending; i++) {
                spec.tasks.add(task(jobId, jobId.name() + "-" + i, perTask, TaskStatus.PENDING, Optional.empty(), 1));
            }
            jobs.put(jobId, spec);
            return this;
        }

        /** Adds a task running on a node to an existing job. */
        public Builder running(String job, String podName, Resources request, String node) {
            JobId jobId = JobId.parse(job);
            JobSpec spec = jobs.get(jobId);
            checkArgument(spec != null, "unknown job %s", job);
            spec.tasks.add(task(jobId, podName, request, TaskStatus.RUNNING, Optional.of(new NodeName(node)), 1));
            return this;
        }

        /** Adds a pod described by {@link #pod} to an existing job. */
        public Builder pod(Pod pod) {
            JobSpec spec = jobs.get(pod.job);
            checkArgument(spec != null, "unknown job %s", pod.job);
            TaskId id = new TaskId(pod.job.namespace(), pod.name);
            spec.tasks.add(new Task(id, pod.job.namespace() + "-" + pod.name, pod.job, pod.role, pod.priority, "", pod.request, pod.request,
                    pod.status, pod.node, pod.created.orElseGet(this::next), pod.preemptable, pod.preemptionNever, false, Placement.ANYWHERE,
                    ImmutableMap.copyOf(pod.labels), ImmutableMap.of(), pod.started));
            return this;
        }

        private Task task(JobId job, String name, Resources request, TaskStatus status, Optional<NodeName> node, int priority) {
            TaskId id = new TaskId(job.namespace(), name);
            return new Task(id, job.namespace() + "-" + name, job, "", priority, "", request, request, status, node, next(),
                    true, false, false, Placement.ANYWHERE, ImmutableMap.of(), ImmutableMap.of());
        }

        /** A queue with the options {@code options} sets on a {@link QueueSpec} (weight 1, Open, nothing else by default). */
        public Builder queue(String name, Consumer<QueueSpec> options) {
            QueueSpec spec = new QueueSpec();
            options.accept(spec);
            QueueName queueName = new QueueName(name);
            queues.put(queueName, new Queue(queueName, name, spec.weight, spec.capability, spec.guarantee, spec.deserved,
                    spec.parent.map(QueueName::new), spec.priority, spec.reclaimable, spec.state, next(), ImmutableMap.of()));
            return this;
        }

        /** A hypernode of the given tier whose members are the named nodes. */
        public Builder hyperNodeOfNodes(String name, int tier, String... nodes) {
            return hyperNode(name, tier, false, nodes);
        }

        /** A hypernode of the given tier whose members are the named hypernodes. */
        public Builder hyperNodeOfHyperNodes(String name, int tier, String... children) {
            return hyperNode(name, tier, true, children);
        }

        private Builder hyperNode(String name, int tier, boolean ofHyperNodes, String... members) {
            ImmutableList.Builder<HyperNode.Member> list = ImmutableList.builder();
            for (String member : members) {
                list.add(new HyperNode.Member(ofHyperNodes, member, "", ImmutableMap.of()));
            }
            hyperNodes.add(new HyperNode(name, tier, "", list.build()));
            return this;
        }

        /** Sets an existing job's PodGroup {@code networkTopology}. */
        public Builder networkTopology(String job, NetworkTopology topology) {
            requireJob(job).networkTopology = Optional.of(topology);
            return this;
        }

        /** Adds a subgroup policy to an existing job's PodGroup. */
        public Builder subGroupPolicy(String job, SubGroupPolicy policy) {
            requireJob(job).subGroupPolicies.add(policy);
            return this;
        }

        /** Sets an existing job's PodGroup {@code minResources}. */
        public Builder minResources(String job, Resources minResources) {
            requireJob(job).minResources = Optional.of(minResources);
            return this;
        }

        /** Adds a PodGroup annotation to an existing job. */
        /** When the job's PodGroup was created (the scenario's counter otherwise). */
        public Builder createdAt(String job, Instant created) {
            JobSpec spec = jobs.get(JobId.parse(job));
            checkArgument(spec != null, "unknown job %s", job);
            spec.created = created;
            return this;
        }

        public Builder annotation(String job, String key, String value) {
            requireJob(job).annotations.put(key, value);
            return this;
        }

        private JobSpec requireJob(String job) {
            JobSpec spec = jobs.get(JobId.parse(job));
            checkArgument(spec != null, "unknown job %s", job);
            return spec;
        }

        public ClusterSnapshot build() {
            if (!queues.containsKey(Queue.DEFAULT)) {
                queue("default", 1);
            }
            ImmutableSortedMap.Builder<JobId, Job> built = ImmutableSortedMap.naturalOrder();
            for (JobSpec spec : jobs.values()) {
                built.put(spec.id, new Job(spec.id, spec.id.toString(), spec.queue, spec.minMember, ImmutableMap.of(), spec.minResources,
                        spec.priority, "", spec.phase, spec.created, spec.networkTopology, ImmutableMap.copyOf(spec.annotations),
                        ImmutableList.copyOf(spec.tasks), ImmutableList.of(), ImmutableList.copyOf(spec.subGroupPolicies)));
            }
            return new ClusterSnapshot(ImmutableSortedMap.copyOf(nodes), built.build(), ImmutableSortedMap.copyOf(queues),
                    ImmutableList.of(), ImmutableMap.of(), ImmutableList.copyOf(hyperNodes));
        }
    }

    /** Starts describing a pod of a job: {@code pod("ns/job", "name").request(cpu(1)).runningOn("n1")}. */
    public static Pod pod(String job, String name) {
        return new Pod(JobId.parse(job), name);
    }

    /** A pod under construction; pending, preemptable, priority 1 and best effort unless told otherwise. */
    public static final class Pod {
        private final JobId job;
        private final String name;
        private Resources request = Resources.EMPTY;
        private TaskStatus status = TaskStatus.PENDING;
        private Optional<NodeName> node = Optional.empty();
        private int priority = 1;
        private boolean preemptable = true;
        private boolean preemptionNever;
        private Optional<Instant> started = Optional.empty();
        private Optional<Instant> created = Optional.empty();
        private String role = "";
        private final Map<String, String> labels = new TreeMap<>();

        private Pod(JobId job, String name) {
            this.job = job;
            this.name = name;
        }

        public Pod request(Resources request) {
            this.request = request;
            return this;
        }

        public Pod runningOn(String node) {
            return placed(TaskStatus.RUNNING, node);
        }

        public Pod boundTo(String node) {
            return placed(TaskStatus.BOUND, node);
        }

        private Pod placed(TaskStatus status, String node) {
            this.status = status;
            this.node = Optional.of(new NodeName(node));
            return this;
        }

        /** When the pod started running ({@code status.startTime}). */
        public Pod startedAt(Instant instant) {
            this.started = Optional.of(instant);
            return this;
        }

        /** When the pod was created (the scenario's counter otherwise). */
        public Pod createdAt(Instant instant) {
            this.created = Optional.of(instant);
            return this;
        }

        public Pod priority(int priority) {
            this.priority = priority;
            return this;
        }

        /** The task's role ({@code volcano.sh/task-spec}). */
        public Pod role(String value) {
            this.role = value;
            return this;
        }

        public Pod label(String key, String value) {
            labels.put(key, value);
            return this;
        }

        public Pod notPreemptable() {
            this.preemptable = false;
            return this;
        }

        public Pod preemptionNever() {
            this.preemptionNever = true;
            return this;
        }
    }

    private static final class JobSpec {
        final JobId id;
        final QueueName queue;
        final int minMember;
        final PodGroupPhase phase;
        final int priority;
        Instant created;
        final List<Task> tasks = new ArrayList<>();
        final Map<String, String> annotations = new TreeMap<>();
        Optional<Resources> minResources = Optional.empty();
        Optional<NetworkTopology> networkTopology = Optional.empty();
        final List<SubGroupPolicy> subGroupPolicies = new ArrayList<>();

        JobSpec(JobId id, QueueName queue, int minMember, PodGroupPhase phase, int priority, Instant created) {
            this.id = id;
            this.queue = queue;
            this.minMember = minMember;
            this.phase = phase;
            this.priority = priority;
            this.created = created;
        }
    }

    /** A queue's options for {@link Builder#queue(String, Consumer)}. */
    public static final class QueueSpec {
        private int weight = 1;
        private Optional<Resources> capability = Optional.empty();
        private Resources guarantee = Resources.EMPTY;
        private Optional<Resources> deserved = Optional.empty();
        private Optional<String> parent = Optional.empty();
        private int priority;
        private boolean reclaimable = true;
        private QueueState state = QueueState.OPEN;

        public QueueSpec weight(int value) {
            weight = value;
            return this;
        }

        public QueueSpec capability(Resources value) {
            capability = Optional.of(value);
            return this;
        }

        public QueueSpec guarantee(Resources value) {
            guarantee = value;
            return this;
        }

        public QueueSpec deserved(Resources value) {
            deserved = Optional.of(value);
            return this;
        }

        public QueueSpec parent(String value) {
            parent = Optional.of(value);
            return this;
        }

        public QueueSpec priority(int value) {
            priority = value;
            return this;
        }

        public QueueSpec reclaimable(boolean value) {
            reclaimable = value;
            return this;
        }

        public QueueSpec state(QueueState value) {
            state = value;
            return this;
        }
    }
}
