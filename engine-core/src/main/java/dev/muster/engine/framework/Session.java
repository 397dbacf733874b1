package dev.muster.engine.framework;

import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import dev.muster.engine.topology.HyperNodeTree;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scheduling cycle over an immutable snapshot: the jobs, nodes and queues as the actions change
 * them, the plugins built for this cycle, and the decisions taken. Open it with {@link #open}, run
 * the actions with {@link #run}, read the decisions from {@link #close}.
 *
 * <p>Not thread-safe: a session is used by the one thread that runs the cycle.
 */
public final class Session {
    private static final Logger log = LoggerFactory.getLogger(Session.class);

    private final ClusterSnapshot snapshot;
    private final SessionConfig config;
    private final Clock clock;
    private final CommittedBinds committedBinds;
    private final Map<JobId, JobState> jobs = new TreeMap<>();
    private final Map<NodeName, NodeState> nodes = new TreeMap<>();
    private final List<NodeState> nodeList;
    private final Map<QueueName, Queue> queues;
    private final Resources totalResource;
    private final Map<TaskId, NodeName> binds = new TreeMap<>();
    private final List<SessionResult.Eviction> evictions = new ArrayList<>();
    private PluginSet plugins = new PluginSet(List.of());
    private HyperNodeTree hyperNodeTree;
    private final Map<String, List<NodeState>> hyperNodeMembers = new HashMap<>();

    private Session(ClusterSnapshot snapshot, SessionConfig config, Clock clock, CommittedBinds committedBinds) {
        this.snapshot = requireNonNull(snapshot, "snapshot is null");
        this.config = requireNonNull(config, "config is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.committedBinds = requireNonNull(committedBinds, "committedBinds is null");
        this.queues = snapshot.queues();
        Resources total = Resources.EMPTY;
        for (ClusterNode node : snapshot.nodes().values()) {
            if (!node.ready()) {
                continue;
            }
            nodes.put(node.name(), new NodeState(node, nodes.size()));
            total = total.add(node.allocatable());
        }
        this.totalResource = total;
        this.nodeList = List.copyOf(nodes.values());
        for (int i = 0; i < nodeList.size(); i++) {
            checkState(nodeList.get(i).index() == i, "BUG: node %s is not at its index %s", nodeList.get(i).name(), i);
        }
        for (Job job : snapshot.jobs().values()) {
            JobState state = new JobState(job);
            jobs.put(job.id(), state);
            for (TaskState task : state.tasks()) {
                Optional<NodeName> node = task.node();
                if (node.isPresent() && !task.status().isTerminated() && nodes.containsKey(node.get())) {
                    nodes.get(node.get()).addTask(task);
                }
            }
        }
        for (JobState job : jobs.values()) {
            if (job.containsNetworkTopology()) {
                TopologySetup.prepare(job, hyperNodes(), hyperNodesReady());
            }
        }
        for (Task other : snapshot.otherTasks()) {
            if (other.node().isPresent() && nodes.containsKey(other.node().get())) {
                nodes.get(other.node().get()).addOtherTask(other);
            }
        }
    }

    /** Opens a session: sets up jobs and nodes, then builds the plugins in tier order. */
    public static Session open(ClusterSnapshot snapshot, SessionConfig config, Clock clock) {
        return open(snapshot, config, clock, CommittedBinds.NONE);
    }

    /** The same, telling {@code committedBinds} of each bind as it is committed. */
    public static Session open(ClusterSnapshot snapshot, SessionConfig config, Clock clock, CommittedBinds committedBinds) {
        Session session = new Session(snapshot, config, clock, committedBinds);
        List<List<PluginInstance>> tiers = new ArrayList<>();
        for (List<ConfiguredPlugin> tier : config.tiers()) {
            List<PluginInstance> instances = new ArrayList<>();
            for (ConfiguredPlugin plugin : tier) {
                instances.add(plugin.instantiate(session));
            }
            tiers.add(instances);
        }
        session.plugins = new PluginSet(tiers);
        return session;
    }

    /** Opens a session, runs every configured action in order, and closes it. */
    public static SessionResult run(ClusterSnapshot snapshot, SessionConfig config, Clock clock) {
        Session session = open(snapshot, config, clock);
        for (Action action : config.actions()) {
            log.debug("running action {}", action.name());
            action.execute(session);
        }
        return session.close();
    }

    public ClusterSnapshot snapshot() {
        return snapshot;
    }

    public PluginSet plugins() {
        return plugins;
    }

    public Instant now() {
        return clock.instant();
    }

    public boolean hasAction(String name) {
        return config.hasAction(name);
    }

    /**
     * Whether the configuration turns a plugin's switch on, for plugins whose behaviour (not just an
     * extension point) depends on one, like drf's {@code enableHierarchy}. The first configured
     * plugin of that name decides, as in Volcano; a plugin that is not configured has every switch off.
     */
    public boolean pluginEnabled(String plugin, PluginFlag flag) {
        for (List<ConfiguredPlugin> tier : config.tiers()) {
            for (ConfiguredPlugin configured : tier) {
                if (configured.name().equals(plugin)) {
                    return !configured.disabled().contains(flag);
                }
            }
        }
        return false;
    }

    /** The jobs of the session, by id. */
    public Collection<JobState> jobs() {
        return Collections.unmodifiableCollection(jobs.values());
    }

    public Optional<JobState> job(JobId id) {
        return Optional.ofNullable(jobs.get(id));
    }

    /** The ready nodes, sorted by name. */
    public List<NodeState> nodes() {
        return nodeList;
    }

    public Optional<NodeState> node(NodeName name) {
        return Optional.ofNullable(nodes.get(name));
    }

    public Map<QueueName, Queue> queues() {
        return queues;
    }

    public Optional<Queue> queue(QueueName name) {
        return Optional.ofNullable(queues.get(name));
    }

    /** The network topology over the ready nodes, built on first use. */
    public HyperNodeTree hyperNodes() {
        if (hyperNodeTree == null) {
            List<ClusterNode> ready = nodeList.stream().map(NodeState::node).toList();
            hyperNodeTree = HyperNodeTree.build(ready, snapshot.hyperNodes());
            if (!hyperNodeTree.problems().isEmpty()) {
                log.warn("hypernodes are not ready for scheduling, jobs with a network topology wait: {}", hyperNodeTree.problems());
            }
        }
        return hyperNodeTree;
    }

    /** Whether the hypernodes form a sound tree; jobs with a topology are not placed until they do. */
    public boolean hyperNodesReady() {
        return hyperNodes().problems().isEmpty();
    }

    /** The ready nodes under a hypernode, sorted by name. */
    public List<NodeState> nodesOf(String hyperNode) {
        return hyperNodeMembers.computeIfAbsent(hyperNode, name -> TopologySetup.nodesOf(name, hyperNodes(), this));
    }

    /** The sum of the ready nodes' allocatable resources. */
    public Resources totalResource() {
        return totalResource;
    }

    /** The first reason a job cannot be scheduled: a problem in its objects, then the plugins' checks. */
    public Optional<String> jobInvalidReason(JobState job) {
        if (!job.job().problems().isEmpty()) {
            return Optional.of(String.join("; ", job.job().problems()));
        }
        return plugins.jobInvalidReason(job);
    }

    public Comparator<JobState> jobOrder() {
        return (left, right) -> {
            int result = plugins.compareJobs(left, right);
            if (result != 0) {
                return result;
            }
            return Comparator.comparing((JobState job) -> job.job().created())
                    .thenComparing(job -> job.job().uid())
                    .compare(left, right);
        };
    }

    public Comparator<Queue> queueOrder() {
        return (left, right) -> {
            int result = plugins.compareQueues(left, right);
            if (result != 0) {
                return result;
            }
            return Comparator.comparing(Queue::created).thenComparing(Queue::uid).compare(left, right);
        };
    }

    public Comparator<TaskState> taskOrder() {
        return (left, right) -> {
            int result = plugins.compareTasks(left, right);
            if (result != 0) {
                return result;
            }
            return compareTasksByDefault(left.task(), right.task());
        };
    }

    /** The plugins' subgroup order, then Volcano's fallback: the match index, then the id. */
    public Comparator<SubJobState> subJobOrder() {
        return (left, right) -> {
            int result = plugins.compareSubJobs(left, right);
            if (result != 0) {
                return result;
            }
            return Comparator.comparingInt(SubJobState::matchIndex).thenComparing(SubJobState::id).compare(left, right);
        };
    }

    /** Volcano's fallback: the pod's index suffix ({@code job-task-3}), then creation time, then uid. */
    static int compareTasksByDefault(Task left, Task right) {
        Optional<Integer> leftIndex = podIndex(left.id().name());
        Optional<Integer> rightIndex = podIndex(right.id().name());
        if (leftIndex.isPresent() && rightIndex.isPresent() && !leftIndex.get().equals(rightIndex.get())) {
            return Integer.compare(leftIndex.get(), rightIndex.get());
        }
        int byCreation = left.created().compareTo(right.created());
        return byCreation != 0 ? byCreation : left.uid().compareTo(right.uid());
    }

    private static Optional<Integer> podIndex(String name) {
        // the number after the last '-', when the name has at least two (split on '-' gives three parts)
        int last = name.lastIndexOf('-');
        if (last <= 0 || name.lastIndexOf('-', last - 1) < 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(Integer.parseInt(name, last + 1, name.length(), 10));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    public Statement newStatement() {
        return new Statement(this);
    }

    /**
     * Allocates a task outside a statement (backfill) and dispatches the job's allocated tasks to be
     * bound once the job is ready, as Volcano's {@code Session.Allocate} does.
     */
    public void allocate(TaskState task, NodeName node) {
        allocateInSession(task, node);
        JobState job = task.job();
        if (plugins.isJobReady(job)) {
            for (TaskState allocated : job.tasksWithStatus(TaskStatus.ALLOCATED)) {
                recordBind(allocated);
            }
        }
    }

    /**
     * Gives back a pipelined task's reservation outside any statement: the task is Pending again.
     * Backfill does this to place pipelined best-effort tasks at once.
     */
    public void unpipeline(TaskState task) {
        checkState(task.status() == TaskStatus.PIPELINED, "BUG: task %s is %s, not Pipelined", task.id(), task.status());
        unplaceInSession(task);
    }

    void allocateInSession(TaskState task, NodeName nodeName) {
        NodeState node = requireNode(nodeName);
        task.job().updateStatus(task, TaskStatus.ALLOCATED);
        task.setNode(Optional.of(nodeName));
        node.addTask(task);
        plugins.allocated(task);
    }

    void pipelineInSession(TaskState task, NodeName nodeName) {
        NodeState node = requireNode(nodeName);
        task.job().updateStatus(task, TaskStatus.PIPELINED);
        task.setNode(Optional.of(nodeName));
        node.addTask(task);
        plugins.allocated(task);
    }

    /** Undoes an allocation or a pipelining: the task is Pending again and its node gets its resources back. */
    void unplaceInSession(TaskState task) {
        task.node().map(nodes::get).ifPresent(node -> node.removeTask(task));
        task.job().updateStatus(task, TaskStatus.PENDING);
        // listeners still see the node the task leaves, as Volcano's event handlers do
        plugins.deallocated(task);
        task.setNode(Optional.empty());
        task.setJobAllocatedHyperNode(Optional.empty());
    }

    void evictInSession(TaskState task) {
        TaskStatus previous = task.status();
        task.job().updateStatus(task, TaskStatus.RELEASING);
        task.node().map(nodes::get).ifPresent(node -> node.updateTask(task, previous));
        plugins.deallocated(task);
    }

    void unevictInSession(TaskState task) {
        task.job().updateStatus(task, TaskStatus.RUNNING);
        task.node().map(nodes::get).ifPresent(node -> node.updateTask(task, TaskStatus.RELEASING));
        plugins.allocated(task);
    }

    void recordBind(TaskState task) {
        checkState(task.node().isPresent(), "BUG: task %s bound without a node", task.id());
        task.job().updateStatus(task, TaskStatus.BINDING);
        binds.put(task.id(), task.node().get());
        committedBinds.committed(task, task.node().get());
    }

    void recordEviction(TaskState task, String action, String reason) {
        evictions.add(new SessionResult.Eviction(task.id(), task.job().id(), task.job().queue(), action, reason));
    }

    private NodeState requireNode(NodeName name) {
        NodeState node = nodes.get(name);
        checkState(node != null, "BUG: node %s is not in the session", name);
        return node;
    }

    /** Lets plugins record outcomes, computes each job's phase, and returns the decisions. */
    public SessionResult close() {
        plugins.sessionClosed(this);
        Map<TaskId, NodeName> pipelined = new TreeMap<>();
        Map<JobId, SessionResult.JobOutcome> outcomes = new TreeMap<>();
        for (JobState job : jobs.values()) {
            for (TaskState task : job.tasksWithStatus(TaskStatus.PIPELINED)) {
                pipelined.put(task.id(), task.node().orElseThrow());
            }
            outcomes.put(job.id(), JobPhases.outcome(this, job));
        }
        return new SessionResult(
                ImmutableSortedMap.copyOf(binds),
                ImmutableList.copyOf(evictions),
                ImmutableSortedMap.copyOf(pipelined),
                ImmutableSortedMap.copyOf(outcomes));
    }
}
