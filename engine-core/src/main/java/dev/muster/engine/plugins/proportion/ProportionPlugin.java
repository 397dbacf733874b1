package dev.muster.engine.plugins.proportion;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.AdmissionCheck;
import dev.muster.engine.framework.AllocationListener;
import dev.muster.engine.framework.DeservedShare;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.QueueCapacity;
import dev.muster.engine.framework.QueueOrder;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.framework.VictimSelector;
import dev.muster.engine.framework.VictimTaskOrder;
import dev.muster.engine.framework.Vote;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.queue.JobUsage;
import dev.muster.engine.queue.Quota;
import dev.muster.engine.queue.QueueAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Weighted fair share between queues (Volcano's {@code proportion}). When the session opens, every
 * queue with a job in it gets a deserved share of the cluster by weighted water-filling; its share is
 * then {@code max(allocated / deserved)}. Queues are served by priority, then smallest share; a queue
 * that holds all it deserves is overused; a task fits its queue only within the deserved share; jobs
 * are admitted while {@code minResources} fits the queue's real capability (and, with
 * {@link ProportionArgs#admitWithinDeserved()}, its deserved share); victims are reclaimed from queues
 * above their deserved share.
 *
 * <p>With {@link ProportionArgs#lendIdleShare()} a queue's loans are its youngest tasks above its deserved
 * share: reclaim takes the youngest first (the run that loses least), never one that ran less than
 * {@link ProportionArgs#minLoanRuntime()}, and never one whose eviction would leave its queue below its
 * deserved share on every resource it is over and the task frees (so that the queue does not turn into
 * a reclaimer of what it just lost).
 */
public final class ProportionPlugin implements Plugin, QueueOrder, QueueCapacity, VictimSelector, VictimTaskOrder, AdmissionCheck,
        AllocationListener, DeservedShare {
    public static final String NAME = "proportion";
    private static final Logger log = LoggerFactory.getLogger(ProportionPlugin.class);
    /** The task that started last first; a task with no start time last. */
    private static final Comparator<TaskState> YOUNGEST_FIRST = Comparator.comparing(
            (TaskState task) -> task.task().started(), (left, right) -> {
                if (left.isPresent() && right.isPresent()) {
                    return right.get().compareTo(left.get());
                }
                return Boolean.compare(left.isEmpty(), right.isEmpty());
            });

    private final Map<QueueName, QueueAttributes> queues = new TreeMap<>();
    private final boolean admitWithinDeserved;
    private final boolean lendIdleShare;
    private final Resources total;
    /** Tasks that started after this instant are loans too young to reclaim. */
    private final Instant youngestReclaimable;

    ProportionPlugin(ProportionArgs args, Session session) {
        this.admitWithinDeserved = args.admitWithinDeserved();
        this.lendIdleShare = args.lendIdleShare();
        this.youngestReclaimable = session.now().minus(args.minLoanRuntimeDuration());
        this.total = session.totalResource();
        Resources totalGuarantee = Resources.EMPTY;
        for (Queue queue : session.queues().values()) {
            totalGuarantee = totalGuarantee.add(queue.guarantee());
        }
        for (JobState job : session.jobs()) {
            Optional<Queue> queue = session.queue(job.queue());
            if (queue.isEmpty()) {
                continue;
            }
            QueueAttributes attributes = queues.get(job.queue());
            if (attributes == null) {
                Resources realCapability = QueueAttributes.realCapability(total, totalGuarantee, queue.get().guarantee(),
                        QueueAttributes.capability(queue.get()));
                attributes = new QueueAttributes(queue.get(), QueueAttributes.capability(queue.get()).orElse(Resources.EMPTY),
                        realCapability, Resources.EMPTY);
                queues.put(job.queue(), attributes);
            }
            // admitting within the deserved share needs the share to count what waits for admission
            attributes.add(admitWithinDeserved ? JobUsage.of(job).withMinimumRequested(job) : JobUsage.of(job));
        }
        WaterFilling.assignDeserved(queues.values(), total);
        queues.values().forEach(attributes -> log.debug("{}", attributes));
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The queue's accounting, when the queue has jobs in this session. */
    public Optional<QueueAttributes> attributes(QueueName queue) {
        return Optional.ofNullable(queues.get(queue));
    }

    @Override
    public Optional<Resources> deserved(QueueName queue) {
        return attributes(queue).map(QueueAttributes::deserved);
    }

    @Override
    public int compareQueues(Queue left, Queue right) {
        if (left.priority() != right.priority()) {
            return Integer.compare(right.priority(), left.priority());
        }
        return Double.compare(share(left.name()), share(right.name()));
    }

    private double share(QueueName queue) {
        QueueAttributes attributes = queues.get(queue);
        return attributes == null ? 0 : attributes.share();
    }

    @Override
    public boolean isOverused(Queue queue) {
        QueueAttributes attributes = queues.get(queue.name());
        if (attributes == null) {
            return false;
        }
        // a queue that may borrow is done only at its capability; share order still serves owners first
        Resources limit = lendIdleShare ? attributes.realCapability() : attributes.deserved();
        boolean overused = limit.lessEqual(attributes.allocated(), Resources.Missing.ZERO);
        if (overused) {
            log.debug("queue={} is overused: {}", queue.name(), attributes);
        }
        return overused;
    }

    @Override
    public boolean isAllocatable(Queue queue, TaskState task) {
        return fitsDeserved(queue, task.request()) || (lendIdleShare && fitsCapability(queue, task.request()));
    }

    @Override
    public boolean isPreemptive(Queue queue, List<TaskState> tasks) {
        Resources requested = Resources.EMPTY;
        for (TaskState task : tasks) {
            requested = requested.add(task.request());
        }
        return fitsDeserved(queue, requested);
    }

    @Override
    public Optional<String> explainNotAllocatable(Queue queue, TaskState task) {
        if (queue.state() != QueueState.OPEN) {
            return Optional.of("queue " + queue.name() + " is " + queue.state().text() + ", not Open");
        }
        QueueAttributes attributes = queues.get(queue.name());
        if (attributes == null) {
            return Optional.empty();
        }
        if (lendIdleShare) {
            return Optional.of(ShareReasons.overRealCapability(attributes, task.request(), total));
        }
        return Optional.of(ShareReasons.overDeserved(queues, attributes, task.request(), total));
    }

    @Override
    public Optional<String> explainLimit(Queue queue, TaskState task) {
        if (queue.state() != QueueState.OPEN) {
            return Optional.of("queue " + queue.name() + " is " + queue.state().text() + ", not Open");
        }
        QueueAttributes attributes = queues.get(queue.name());
        return attributes == null ? Optional.empty() : ShareReasons.overLimit(attributes, task.request(), total);
    }

    @Override
    public Optional<String> explainRejection(JobState job) {
        QueueAttributes attributes = queues.get(job.queue());
        if (attributes == null) {
            return Optional.empty();
        }
        if (!attributes.isOpen()) {
            return Optional.of("queue " + job.queue() + " is " + attributes.queue().state().text() + ", not Open");
        }
        Resources minimum = job.job().minResources().orElse(Resources.EMPTY);
        if (attributes.admissionShortfall(minimum).isEmpty() && admitWithinDeserved) {
            return Optional.of(ShareReasons.deservedShortfall(queues, attributes, minimum));
        }
        return Optional.of(ShareReasons.admissionShortfall(attributes, minimum, total));
    }

    @Override
    public boolean rejectsForRoom(JobState job) {
        QueueAttributes attributes = queues.get(job.queue());
        return attributes != null && attributes.isOpen()
                && ShareReasons.noLimitRefuses(attributes, job.job().minResources().orElse(Resources.EMPTY), total);
    }

    private boolean fitsDeserved(Queue queue, Resources request) {
        if (queue.state() != QueueState.OPEN) {
            return false;
        }
        QueueAttributes attributes = queues.get(queue.name());
        if (attributes == null) {
            return true;
        }
        return Quota.fitsOnRequested(attributes.allocated().add(request), attributes.deserved(), request);
    }

    private boolean fitsCapability(Queue queue, Resources request) {
        QueueAttributes attributes = queues.get(queue.name());
        return attributes == null
                || Quota.fitsOnRequested(attributes.allocated().add(request), attributes.realCapability(), request);
    }

    /**
     * Takes victims from each queue only while it holds more than it deserves (its loans), and, with a
     * minimum loan run time, only tasks that have run that long. Lending takes only the youngest loans
     * and never a task that would take its queue below its deserved share.
     */
    @Override
    public Optional<List<TaskState>> reclaimable(TaskState reclaimer, List<TaskState> candidates) {
        Map<QueueName, Resources> remaining = new HashMap<>();
        List<TaskState> victims = new ArrayList<>();
        List<TaskState> inOrder = candidates;
        if (lendIdleShare) {
            inOrder = new ArrayList<>(candidates);
            inOrder.sort(YOUNGEST_FIRST);
        }
        for (TaskState candidate : inOrder) {
            QueueAttributes attributes = queues.get(candidate.job().queue());
            if (attributes == null || tooYoung(candidate)) {
                continue;
            }
            Resources allocated = remaining.computeIfAbsent(attributes.name(), name -> attributes.allocated());
            if (allocated.lessEqual(attributes.deserved(), Resources.Missing.ZERO)) {
                continue;
            }
            Resources after = allocated.subtract(candidate.request());
            if (lendIdleShare && !staysAtShare(allocated, after, attributes.deserved(), candidate.request())) {
                continue;
            }
            remaining.put(attributes.name(), after);
            victims.add(candidate);
        }
        return Optional.of(victims);
    }

    /**
     * Whether taking {@code request} away leaves the queue at or above its deserved share on at least one
     * resource where it is over its share and that the request frees (on a GPU cluster, the GPUs: the
     * shares of cpu and memory come from the same demand and are rarely the ones that bind); false when
     * the request frees none of them.
     */
    static boolean staysAtShare(Resources allocated, Resources after, Resources deserved, Resources request) {
        for (String resource : allocated.insufficientAgainst(deserved)) {
            if (request.get(resource) >= Resources.EPSILON && after.get(resource) >= deserved.get(resource) - Resources.EPSILON) {
                return true;
            }
        }
        return false;
    }

    /** While lending, the youngest loan is evicted first: its run loses least. */
    @Override
    public int compareVictimTasks(TaskState left, TaskState right, TaskState preemptor) {
        return lendIdleShare ? YOUNGEST_FIRST.compare(left, right) : 0;
    }

    private boolean tooYoung(TaskState candidate) {
        return candidate.task().started().map(started -> started.isAfter(youngestReclaimable)).orElse(false);
    }

    @Override
    public Vote isEnqueueable(JobState job) {
        QueueAttributes attributes = queues.get(job.queue());
        if (attributes == null) {
            return Vote.ABSTAIN;
        }
        if (!attributes.isOpen()) {
            log.debug("job={} rejected: queue={} is {}", job.id(), job.queue(), attributes.queue().state().text());
            return Vote.REJECT;
        }
        if (job.job().minResources().isEmpty()) {
            return Vote.PERMIT;
        }
        TreeSet<String> shortfall = attributes.admissionShortfall(job.job().minResources().get());
        if (!shortfall.isEmpty()) {
            log.debug("job={} rejected: queue resource quota insufficient on {}; {}", job.id(), shortfall, attributes);
            return Vote.REJECT;
        }
        if (admitWithinDeserved) {
            TreeSet<String> overDeserved = attributes.deservedShortfall(job.job().minResources().get());
            if (!overDeserved.isEmpty()) {
                log.debug("job={} rejected: queue would go over its deserved share on {}; {}", job.id(), overDeserved, attributes);
                return Vote.REJECT;
            }
        }
        return Vote.PERMIT;
    }

    @Override
    public void enqueued(JobState job) {
        QueueAttributes attributes = queues.get(job.queue());
        if (attributes != null && job.job().minResources().isPresent()) {
            attributes.addInqueue(JobUsage.admittedResources(job));
        }
    }

    @Override
    public void allocated(TaskState task) {
        QueueAttributes attributes = queues.get(task.job().queue());
        if (attributes != null) {
            attributes.addAllocated(task.request());
            attributes.setShare(Quota.share(attributes.allocated(), attributes.deserved()));
        }
    }

    @Override
    public void deallocated(TaskState task) {
        QueueAttributes attributes = queues.get(task.job().queue());
        if (attributes != null) {
            attributes.subtractAllocated(task.request());
            attributes.setShare(Quota.share(attributes.allocated(), attributes.deserved()));
        }
    }

    /** Builds the plugin from its arguments. */
    public static final class Factory implements PluginFactory<ProportionArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<ProportionArgs> argsType() {
            return ProportionArgs.class;
        }

        @Override
        public ProportionArgs defaultArgs() {
            return ProportionArgs.DEFAULTS;
        }

        @Override
        public Plugin create(ProportionArgs args, Session session) {
            requireNonNull(args, "args is null");
            return new ProportionPlugin(args, session);
        }
    }
}
