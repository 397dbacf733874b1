package dev.muster.engine.plugins.capacity;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.AdmissionCheck;
import dev.muster.engine.framework.AllocationListener;
import dev.muster.engine.framework.DeservedShare;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.PluginFlag;
import dev.muster.engine.framework.QueueCapacity;
import dev.muster.engine.framework.QueueOrder;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.framework.VictimQueueOrder;
import dev.muster.engine.framework.VictimSelector;
import dev.muster.engine.framework.Vote;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.queue.JobUsage;
import dev.muster.engine.queue.Quota;
import dev.muster.engine.queue.QueueAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queues with explicit quotas (Volcano's {@code capacity}): each queue deserves its
 * {@code spec.deserved} and may use up to its real capability. Queues are served by priority, then
 * smallest share ({@code allocated / deserved}; best-effort queues without a deserved share count as 1
 * and go after queues with one); a task fits while its queue and every ancestor stay within their real
 * capability; a queue may reclaim while it would stay below its deserved share on some dimension it
 * asks for; jobs are admitted while {@code minResources} fits every level. With {@code enableHierarchy}
 * the queues form a tree ({@link QueueTree}) and only leaf queues hold jobs.
 */
public final class CapacityPlugin implements Plugin, QueueOrder, VictimQueueOrder, QueueCapacity, VictimSelector,
        AdmissionCheck, AllocationListener, DeservedShare {
    public static final String NAME = "capacity";
    private static final Logger log = LoggerFactory.getLogger(CapacityPlugin.class);

    private final boolean hierarchical;
    private final int ancestorReclaimLevel;
    private final QueueTree tree;
    private final CapacityReclaim reclaim;

    CapacityPlugin(CapacityArgs args, Session session) {
        this.hierarchical = session.pluginEnabled(NAME, PluginFlag.HIERARCHY);
        this.ancestorReclaimLevel = args.ancestorReclaimLevel();
        this.tree = hierarchical ? QueueTree.hierarchical(session) : QueueTree.flat(session);
        this.reclaim = new CapacityReclaim(session, tree, hierarchical, ancestorReclaimLevel);
        tree.all().forEach(attributes -> log.debug("{}", attributes));
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The queue's accounting, when the plugin tracks the queue this session. */
    public Optional<QueueAttributes> attributes(QueueName queue) {
        return tree.get(queue);
    }

    @Override
    public Optional<Resources> deserved(QueueName queue) {
        return attributes(queue).map(QueueAttributes::deserved);
    }

    @Override
    public int compareQueues(Queue left, Queue right) {
        if (!tree.ready()) {
            // Volcano registers no queue order when the hierarchy cannot be built
            return 0;
        }
        if (left.priority() != right.priority()) {
            return Integer.compare(right.priority(), left.priority());
        }
        if (!hierarchical) {
            return compareShares(left.name(), right.name());
        }
        boolean leftLeaf = tree.isLeaf(left.name());
        boolean rightLeaf = tree.isLeaf(right.name());
        if (leftLeaf != rightLeaf) {
            return leftLeaf ? -1 : 1;
        }
        if (!leftLeaf) {
            return compareShares(left.name(), right.name());
        }
        // leaves compare through their ancestors just below the deepest ancestor they share
        List<QueueName> leftAncestors = tree.ancestorNames(left.name());
        List<QueueName> rightAncestors = tree.ancestorNames(right.name());
        int level = commonLevel(leftAncestors, rightAncestors);
        QueueName leftSide = level + 1 < leftAncestors.size() ? leftAncestors.get(level + 1) : left.name();
        QueueName rightSide = level + 1 < rightAncestors.size() ? rightAncestors.get(level + 1) : right.name();
        return compareShares(leftSide, rightSide);
    }

    /** Equal shares: a queue with a deserved share goes before a best-effort one. */
    private int compareShares(QueueName left, QueueName right) {
        Optional<QueueAttributes> leftQueue = tree.get(left);
        Optional<QueueAttributes> rightQueue = tree.get(right);
        if (leftQueue.isEmpty() || rightQueue.isEmpty()) {
            return 0;
        }
        double leftShare = leftQueue.get().share();
        double rightShare = rightQueue.get().share();
        if (leftShare != rightShare) {
            return leftShare < rightShare ? -1 : 1;
        }
        boolean leftDeserves = !Quota.isEmpty(leftQueue.get().deserved());
        boolean rightDeserves = !Quota.isEmpty(rightQueue.get().deserved());
        return leftDeserves == rightDeserves ? 0 : leftDeserves ? -1 : 1;
    }

    /** The index of the deepest ancestor two ancestor lists share (Volcano's {@code getQueueLevel}). */
    private static int commonLevel(List<QueueName> left, List<QueueName> right) {
        int level = 0;
        for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
            if (!left.get(i).equals(right.get(i))) {
                return level;
            }
            level = i;
        }
        return level;
    }

    /** With a hierarchy, victims come first from queues that share deeper ancestors with the preemptor. */
    @Override
    public int compareVictimQueues(Queue left, Queue right, Queue preemptor) {
        if (!hierarchical || !tree.ready()) {
            return 0;
        }
        List<QueueName> preemptorAncestors = tree.ancestorNames(preemptor.name());
        int leftLevel = commonLevel(tree.ancestorNames(left.name()), preemptorAncestors);
        int rightLevel = commonLevel(tree.ancestorNames(right.name()), preemptorAncestors);
        return Integer.compare(rightLevel, leftLevel);
    }

    @Override
    public boolean isAllocatable(Queue queue, TaskState task) {
        if (queue.state() != QueueState.OPEN || !tree.ready() || (hierarchical && !tree.isLeaf(queue.name()))) {
            return false;
        }
        Optional<QueueAttributes> attributes = tree.get(queue.name());
        if (attributes.isEmpty()) {
            return true;
        }
        for (QueueAttributes level : withAncestors(attributes.get())) {
            if (!Quota.fitsOnRequested(level.allocated().add(task.request()), level.realCapability(), task.request())) {
                log.debug("queue={} cannot take task={}: {}", level.name(), task.id(), level);
                return false;
            }
        }
        return true;
    }

    @Override
    public Optional<String> explainNotAllocatable(Queue queue, TaskState task) {
        return explain(queue, task, false);
    }

    /** A refusal by a queue's state, the queue tree, or a capability its {@code spec.capability} (or an ancestor's) sets. */
    @Override
    public Optional<String> explainLimit(Queue queue, TaskState task) {
        return explain(queue, task, true);
    }

    private Optional<String> explain(Queue queue, TaskState task, boolean onlySetLimits) {
        if (queue.state() != QueueState.OPEN) {
            return Optional.of("queue " + queue.name() + " is " + queue.state().text() + ", not Open");
        }
        if (!tree.ready()) {
            return Optional.of("the queue tree is not usable (a missing root or parent, or a job in a non-leaf queue)");
        }
        if (hierarchical && !tree.isLeaf(queue.name())) {
            return Optional.of("queue " + queue.name() + " has child queues; jobs may only use leaf queues");
        }
        Optional<QueueAttributes> attributes = tree.get(queue.name());
        if (attributes.isEmpty()) {
            return Optional.empty();
        }
        for (QueueAttributes level : withAncestors(attributes.get())) {
            Resources used = level.allocated().add(task.request());
            TreeSet<String> excess = Quota.insufficientOnRequested(used, level.realCapability(), task.request());
            if (!excess.isEmpty()) {
                if (onlySetLimits && level.queue().capability().isEmpty()) {
                    return Optional.empty();
                }
                return Optional.of(String.format("queue %s would go over its capability: %s", level.name(),
                        Quota.describeExcess(excess, used, level.realCapability())));
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<String> explainRejection(JobState job) {
        if (!tree.ready()) {
            return Optional.of("the queue tree is not usable (a missing root or parent, or a job in a non-leaf queue)");
        }
        if (hierarchical && !tree.isLeaf(job.queue())) {
            return Optional.of("queue " + job.queue() + " has child queues; jobs may only use leaf queues");
        }
        Optional<QueueAttributes> attributes = tree.get(job.queue());
        if (attributes.isEmpty()) {
            return Optional.empty();
        }
        if (!attributes.get().isOpen()) {
            return Optional.of("queue " + job.queue() + " is " + attributes.get().queue().state().text() + ", not Open");
        }
        Resources minimum = job.job().minResources().orElse(Resources.EMPTY);
        for (QueueAttributes level : withAncestors(attributes.get())) {
            if (!level.admissionShortfall(minimum).isEmpty()) {
                Resources future = minimum.add(level.allocated()).add(level.inqueue()).subtract(level.elastic());
                return Optional.of(String.format("minResources (%s) would take queue %s over its capability, counting what it runs and has admitted: %s",
                        minimum, level.name(), Quota.describeExcess(level.admissionShortfall(minimum), future, level.realCapability())));
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean isPreemptive(Queue queue, List<TaskState> tasks) {
        if (!tree.ready() || queue.state() != QueueState.OPEN) {
            return false;
        }
        Optional<QueueAttributes> attributes = tree.get(queue.name());
        if (attributes.isEmpty()) {
            return false;
        }
        Resources request = Resources.EMPTY;
        for (TaskState task : tasks) {
            request = request.add(task.request());
        }
        Resources futureUsed = attributes.get().allocated().add(request);
        if (!Quota.fitsOnRequested(futureUsed, attributes.get().realCapability(), request)) {
            return false;
        }
        if (Quota.fitsPartlyOnUsedDimensions(futureUsed, attributes.get().deserved(), request)) {
            return true;
        }
        if (!hierarchical) {
            return false;
        }
        for (int level = 1; level <= ancestorReclaimLevel; level++) {
            Optional<QueueAttributes> ancestor = reclaim.ancestorAtDepth(queue.name(), level)
                    .filter(name -> !name.equals(Queue.ROOT))
                    .flatMap(tree::get);
            if (ancestor.isPresent() && Quota.fitsPartlyOnUsedDimensions(
                    ancestor.get().allocated().add(request), ancestor.get().deserved(), request)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Optional<List<TaskState>> reclaimable(TaskState reclaimer, List<TaskState> candidates) {
        if (!tree.ready()) {
            return Optional.of(List.of());
        }
        return Optional.of(reclaim.victims(reclaimer, candidates));
    }

    @Override
    public Vote isEnqueueable(JobState job) {
        if (!tree.ready() || (hierarchical && !tree.isLeaf(job.queue()))) {
            return Vote.REJECT;
        }
        Optional<QueueAttributes> attributes = tree.get(job.queue());
        if (attributes.isEmpty()) {
            return Vote.ABSTAIN;
        }
        if (!attributes.get().isOpen()) {
            return Vote.REJECT;
        }
        if (job.job().minResources().isEmpty()) {
            return Vote.PERMIT;
        }
        for (QueueAttributes level : withAncestors(attributes.get())) {
            TreeSet<String> shortfall = level.admissionShortfall(job.job().minResources().get());
            if (!shortfall.isEmpty()) {
                log.debug("job={} rejected: queue={} resource quota insufficient on {}; {}", job.id(), level.name(), shortfall, level);
                return Vote.REJECT;
            }
        }
        return Vote.PERMIT;
    }

    @Override
    public void enqueued(JobState job) {
        Optional<QueueAttributes> attributes = tree.get(job.queue());
        if (attributes.isEmpty() || job.job().minResources().isEmpty()) {
            return;
        }
        Resources admitted = JobUsage.admittedResources(job);
        attributes.get().addInqueue(admitted);
        if (hierarchical) {
            tree.ancestors(job.queue()).forEach(ancestor -> ancestor.addInqueue(admitted));
        }
    }

    @Override
    public void allocated(TaskState task) {
        tree.get(task.job().queue()).ifPresent(attributes -> {
            attributes.addAllocated(task.request());
            QueueTree.updateShare(attributes);
            // as in Volcano, ancestors' allocations move but their shares keep their session-open values
            tree.ancestors(attributes.name()).forEach(ancestor -> ancestor.addAllocated(task.request()));
        });
    }

    @Override
    public void deallocated(TaskState task) {
        tree.get(task.job().queue()).ifPresent(attributes -> {
            attributes.subtractAllocated(task.request());
            QueueTree.updateShare(attributes);
            tree.ancestors(attributes.name()).forEach(ancestor -> ancestor.subtractAllocated(task.request()));
        });
    }

    /** The queue, then its ancestors from the parent up to the root. */
    private List<QueueAttributes> withAncestors(QueueAttributes queue) {
        List<QueueAttributes> levels = new ArrayList<>();
        levels.add(queue);
        List<QueueAttributes> ancestors = tree.ancestors(queue.name());
        for (int i = ancestors.size() - 1; i >= 0; i--) {
            levels.add(ancestors.get(i));
        }
        return levels;
    }

    /** Builds the plugin from its {@link CapacityArgs}; reads {@code enableHierarchy} from the session. */
    public static final class Factory implements PluginFactory<CapacityArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<CapacityArgs> argsType() {
            return CapacityArgs.class;
        }

        @Override
        public CapacityArgs defaultArgs() {
            return CapacityArgs.DEFAULTS;
        }

        @Override
        public Plugin create(CapacityArgs args, Session session) {
            requireNonNull(args, "args is null");
            return new CapacityPlugin(args, session);
        }
    }
}
