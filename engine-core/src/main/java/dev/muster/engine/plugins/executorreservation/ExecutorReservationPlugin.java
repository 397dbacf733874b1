package dev.muster.engine.plugins.executorreservation;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.AllocationListener;
import dev.muster.engine.framework.FitFailure;
import dev.muster.engine.framework.JobPipelining;
import dev.muster.engine.framework.JobReadiness;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NodeFilter;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.QueueCapacity;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionCloseListener;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.framework.Vote;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskStatus;
import dev.muster.engine.queue.QueueAttributes;
import dev.muster.engine.queue.Quota;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Executor reservation for Spark applications (issue 12). Spark's driver creates its executors only
 * once it runs, so a PodGroup admitted with {@code minMember: 1} and {@code minResources} for driver and
 * executors (Volcano's answer) leaves the executors' room free between the driver's start and their
 * creation, and other jobs take it: concurrent drivers then wait for executors that never fit. With this
 * plugin, once an admitted application's driver is bound, the room of the executors it still misses is
 * held for it ({@link ExecutorHolds}): no other job's pod is placed into it, and its queue counts it as
 * the application's against the queue's capability, until the executors are bound or the hold timeout passes after the driver started
 * (then a warning event says the hold was released). Its first {@value SparkApplication#GANG_EXECUTORS}
 * executors are placed only together, for at most the gang wait after the first executor pod was created
 * (Spark runs tasks on what it has after that long); then those that fit are placed into the held room. The hold is rebuilt from the snapshot every session, so it needs
 * no state between cycles, and the timeout is read against the session's injected clock.
 */
public final class ExecutorReservationPlugin implements Plugin, NodeFilter, JobReadiness, JobPipelining, QueueCapacity,
        AllocationListener, SessionCloseListener {
    public static final String NAME = "executorreservation";
    /** The PodGroup annotation with the number of executors an application starts with. */
    public static final String EXPECTED_EXECUTORS = SparkApplication.EXPECTED_EXECUTORS;
    /** The PodGroup annotation with the number of executors placed only together. */
    public static final String GANG_EXECUTORS = SparkApplication.GANG_EXECUTORS;

    private final Instant now;
    private final Map<JobState, SparkApplication> applications = new LinkedHashMap<>();
    private final ExecutorHolds holds;
    private final Map<QueueName, Resources> queueAllocated = new HashMap<>();

    private ExecutorReservationPlugin(ExecutorReservationArgs args, Session session) {
        this.now = session.now();
        List<JobState> jobs = new ArrayList<>(session.jobs());
        jobs.sort(Comparator.comparing((JobState job) -> job.job().created()).thenComparing(job -> job.job().uid()));
        List<SparkApplication> holding = new ArrayList<>();
        Duration timeout = args.timeout();
        Duration gangWait = args.gangWaitDuration();
        for (JobState job : jobs) {
            queueAllocated.merge(job.queue(), job.allocated(), Resources::add);
            Optional<SparkApplication> application = SparkApplication.of(job, timeout, gangWait);
            if (application.isEmpty()) {
                continue;
            }
            applications.put(job, application.get());
            if (holdsRoom(application.get())) {
                holding.add(application.get());
            }
        }
        this.holds = ExecutorHolds.build(holding, session.nodes());
    }

    private boolean holdsRoom(SparkApplication application) {
        return !application.job().isPending() && application.driverBound() && !application.expired(now)
                && application.missing() > 0 && application.perExecutor().isPresent();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<FitFailure> filter(TaskState task, NodeState node) {
        Resources others = holds.heldForOthers(node.name(), task.job());
        if (others.isEmpty() || task.request().add(others).lessEqual(node.idle(), Resources.Missing.ZERO)) {
            return Optional.empty();
        }
        String holders = holds.holdersOn(node.name(), task.job()).stream()
                .map(application -> application.job().id() + " (until " + application.deadline() + ")")
                .collect(Collectors.joining(", "));
        return Optional.of(FitFailure.resolvable("node " + node.name() + ": " + others + " of its free room is held for the executors of "
                + holders));
    }

    private record FilterKey(int version, Optional<JobId> holder, Resources request) {}

    @Override
    public Optional<Object> filterKey(TaskState task) {
        Optional<JobId> holder = holds.holds(task.job()) ? Optional.of(task.job().id()) : Optional.empty();
        return Optional.of(new FilterKey(holds.version(), holder, task.request()));
    }

    /** Not ready while some but not all of the first executors hold resources, before the timeout. */
    @Override
    public boolean isReady(JobState job) {
        SparkApplication application = applications.get(job);
        if (application == null || !application.gangApplies(now)) {
            return true;
        }
        int placed = application.placedExecutors();
        return placed == 0 || placed >= application.gang();
    }

    @Override
    public Vote isPipelined(JobState job) {
        SparkApplication application = applications.get(job);
        if (application == null || !application.gangApplies(now)) {
            return Vote.ABSTAIN;
        }
        int placed = application.placedExecutors() + (int) job.tasksWithStatus(TaskStatus.PIPELINED).stream()
                .filter(application::isExecutor).count();
        return placed == 0 || placed >= application.gang() ? Vote.ABSTAIN : Vote.REJECT;
    }

    /**
     * A queue with a capability takes another job's task only if its allocation, the room held for its
     * Spark applications and the task fit the capability. Admission already counts the held room:
     * {@code minResources} less what a running application holds is its queue's inqueue share.
     */
    @Override
    public boolean isAllocatable(Queue queue, TaskState task) {
        Resources held = holds.heldInQueue(queue.name(), task.job());
        if (held.isEmpty()) {
            return true;
        }
        Optional<Resources> capability = QueueAttributes.capability(queue);
        return capability.isEmpty()
                || Quota.fitsOnRequested(used(queue.name()).add(held).add(task.request()), capability.get(), task.request());
    }

    @Override
    public Optional<String> explainNotAllocatable(Queue queue, TaskState task) {
        Resources held = holds.heldInQueue(queue.name(), task.job());
        Resources capability = QueueAttributes.capability(queue).orElse(Resources.EMPTY);
        Resources used = used(queue.name()).add(held).add(task.request());
        return Optional.of("queue " + queue.name() + " would go over its capability counting " + held
                + " held for its Spark applications' executors: "
                + Quota.describeExcess(Quota.insufficientOnRequested(used, capability, task.request()), used, capability));
    }

    /** Its only refusal is by the queue's capability, a limit the user set. */
    @Override
    public Optional<String> explainLimit(Queue queue, TaskState task) {
        return explainNotAllocatable(queue, task);
    }

    private Resources used(QueueName queue) {
        return queueAllocated.getOrDefault(queue, Resources.EMPTY);
    }

    @Override
    public void allocated(TaskState task) {
        queueAllocated.merge(task.job().queue(), task.request(), Resources::add);
        if (holds.holds(task.job()) && holds.application(task.job()).isExecutor(task) && task.node().isPresent()) {
            holds.executorPlaced(task.job(), task.node().get());
        }
    }

    @Override
    public void deallocated(TaskState task) {
        queueAllocated.merge(task.job().queue(), task.request().multiply(-1), Resources::add);
        if (holds.holds(task.job()) && holds.application(task.job()).isExecutor(task)) {
            holds.executorUnplaced(task.job());
        }
    }

    /** Says on each application why its executors' room is held, or that the hold was released. */
    @Override
    public void sessionClosed(Session closing) {
        for (SparkApplication application : applications.values()) {
            JobState job = application.job();
            if (holds.holds(job) && application.missing() > 0) {
                job.recordReservation(describeHold(application));
            } else if (!job.isPending() && application.driverBound() && application.expired(now) && application.missing() > 0) {
                job.recordWarning("executor reservation released: " + application.expected() + " executors were expected by "
                        + application.deadline() + " (the hold timeout after the driver started) and are not all bound;"
                        + " their room is free for other jobs");
            } else if (application.gangApplies(now) && application.gangShortfall() > 0
                    && application.existingExecutors() > 0) {
                job.recordReservation("the first " + application.gang() + " executors are placed together, until "
                        + application.deadline() + "; " + application.existingExecutors() + " exist, "
                        + application.placedExecutors() + " placed");
            }
        }
    }

    private String describeHold(SparkApplication application) {
        JobState job = application.job();
        int held = holds.heldSlots(job);
        int missing = application.missing();
        StringBuilder text = new StringBuilder("executor room held: ").append(held).append(" of ").append(missing)
                .append(" missing executors (").append(application.perExecutor().orElseThrow()).append(" each)");
        Map<NodeName, Integer> slots = holds.slotsOf(job);
        if (!slots.isEmpty()) {
            text.append(" on ").append(slots.entrySet().stream().map(entry -> entry.getKey() + "×" + entry.getValue())
                    .collect(Collectors.joining(", ")));
        }
        if (held < missing) {
            text.append("; ").append(missing - held).append(" wait for room to free");
        }
        if (application.gangApplies(now) && application.gangShortfall() > 0) {
            text.append("; the first ").append(application.gang()).append(" executors are placed together");
            application.gangDeadline().ifPresent(until -> text.append(" until ").append(until));
        }
        return text.append("; until ").append(application.deadline()).append(", ").append(application.placedExecutors())
                .append(" of ").append(application.expected()).append(" expected executors bound").toString();
    }

    /** Builds the plugin from its {@link ExecutorReservationArgs}. */
    public static final class Factory implements PluginFactory<ExecutorReservationArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<ExecutorReservationArgs> argsType() {
            return ExecutorReservationArgs.class;
        }

        @Override
        public ExecutorReservationArgs defaultArgs() {
            return ExecutorReservationArgs.DEFAULTS;
        }

        @Override
        public ExecutorReservationPlugin create(ExecutorReservationArgs args, Session session) {
            requireNonNull(args, "args is null");
            requireNonNull(session, "session is null");
            return new ExecutorReservationPlugin(args, session);
        }
    }
}
