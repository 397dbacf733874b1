package dev.muster.engine.plugins.drf;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.AllocationListener;
import dev.muster.engine.framework.JobOrder;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NoArgs;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.PluginFlag;
import dev.muster.engine.framework.QueueOrder;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.framework.VictimSelector;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Dominant resource fairness between jobs: a job's share is its largest fraction of any cluster
 * resource; smaller shares go first, and a preemptor may evict a task when that leaves the victim's
 * job with a share no smaller than the preemptor's would become.
 *
 * <p>With {@code enableHierarchy: true} (hierarchical DRF) it also orders queues by their place in the
 * {@link ShareTree} built from the queues' {@code volcano.sh/hierarchy} annotations, and lets a
 * reclaimer take a task from another queue when, with the reclaimer added and that task removed, the
 * reclaimer's queue would still come first.
 */
public final class DrfPlugin implements Plugin, JobOrder, QueueOrder, VictimSelector, AllocationListener {
    public static final String NAME = "drf";
    private static final double SHARE_DELTA = 0.000001;

    private final Session session;
    private final Resources total;
    private final Map<JobId, Resources> allocated = new HashMap<>();
    private final Map<JobId, Double> shares = new HashMap<>();
    private final Map<JobId, Resources> requests = new HashMap<>();
    private final Optional<ShareTree> tree;
    private Resources totalAllocated = Resources.EMPTY;

    DrfPlugin(Session session, boolean hierarchy) {
        this.session = session;
        this.total = session.totalResource();
        for (JobState job : session.jobs()) {
            allocated.put(job.id(), job.allocated());
            shares.put(job.id(), share(job.allocated(), total));
        }
        this.tree = hierarchy ? Optional.of(new ShareTree(total)) : Optional.empty();
        if (hierarchy) {
            for (JobState job : session.jobs()) {
                Resources request = Resources.EMPTY;
                for (TaskState task : job.tasks()) {
                    request = request.add(task.request());
                }
                requests.put(job.id(), request);
                totalAllocated = totalAllocated.add(job.allocated());
                setLeaf(tree.get(), job, job.allocated());
            }
            tree.get().recompute(totalAllocated);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The dominant share: the largest allocated/total over the cluster's resources. */
    public static double share(Resources allocated, Resources total) {
        // the largest fraction does not depend on the order the resources are visited in
        double result = Math.max(fraction(allocated.milliCpu(), total.milliCpu()), fraction(allocated.memory(), total.memory()));
        for (Map.Entry<String, Double> scalar : total.scalars().entrySet()) {
            result = Math.max(result, fraction(allocated.get(scalar.getKey()), scalar.getValue()));
        }
        return Math.max(result, 0);
    }

    /** Volcano's share: l/r, with 0/0 = 0 and x/0 = 1. */
    public static double fraction(double left, double right) {
        if (right == 0) {
            return left == 0 ? 0 : 1;
        }
        return left / right;
    }

    public double share(JobId job) {
        return shares.getOrDefault(job, 0.0);
    }

    @Override
    public int compareJobs(JobState left, JobState right) {
        return Double.compare(share(left.id()), share(right.id()));
    }

    @Override
    public Optional<List<TaskState>> preemptable(TaskState preemptor, List<TaskState> candidates) {
        Resources preemptorAllocated = allocated.getOrDefault(preemptor.job().id(), Resources.EMPTY).add(preemptor.request());
        double preemptorShare = share(preemptorAllocated, total);
        Map<JobId, Resources> remaining = new HashMap<>();
        List<TaskState> victims = new ArrayList<>();
        for (TaskState candidate : candidates) {
            JobId job = candidate.job().id();
            Resources after = remaining.computeIfAbsent(job, id -> allocated.getOrDefault(id, Resources.EMPTY)).subtract(candidate.request());
            remaining.put(job, after);
            double victimShare = share(after, total);
            if (preemptorShare < victimShare || Math.abs(preemptorShare - victimShare) <= SHARE_DELTA) {
                victims.add(candidate);
            }
        }
        return Optional.of(victims);
    }

    @Override
    public int compareQueues(Queue left, Queue right) {
        if (tree.isEmpty()) {
            return 0;
        }
        return (int) Math.signum(tree.get().compare(left, right));
    }

    @Override
    public Optional<List<TaskState>> reclaimable(TaskState reclaimer, List<TaskState> candidates) {
        if (tree.isEmpty()) {
            return Optional.empty();
        }
        Optional<Queue> reclaimerQueue = session.queue(reclaimer.job().queue());
        if (reclaimerQueue.isEmpty()) {
            return Optional.of(List.of());
        }
        ShareTree whatIf = tree.get().copy();
        Resources whatIfTotal = totalAllocated.add(reclaimer.request());
        setLeaf(whatIf, reclaimer.job(), allocated(reclaimer.job().id()).add(reclaimer.request()));
        whatIf.recompute(whatIfTotal);
        List<TaskState> victims = new ArrayList<>();
        for (TaskState candidate : candidates) {
            Optional<Queue> candidateQueue = session.queue(candidate.job().queue());
            if (candidateQueue.isEmpty()) {
                continue;
            }
            JobState job = candidate.job();
            setLeaf(whatIf, job, allocated(job.id()).subtract(candidate.request()));
            whatIf.recompute(whatIfTotal.subtract(candidate.request()));
            double order = whatIf.compare(reclaimerQueue.get(), candidateQueue.get());
            setLeaf(whatIf, job, allocated(job.id()));
            whatIf.recompute(whatIfTotal);
            if (order < 0) {
                victims.add(candidate);
            }
        }
        return Optional.of(victims);
    }

    private Resources allocated(JobId job) {
        return allocated.getOrDefault(job, Resources.EMPTY);
    }

    private void setLeaf(ShareTree into, JobState job, Resources jobAllocated) {
        session.queue(job.queue()).ifPresent(queue ->
                into.setJob(queue, job.id().toString(), jobAllocated, requests.getOrDefault(job.id(), Resources.EMPTY)));
    }

    @Override
    public void allocated(TaskState task) {
        totalAllocated = totalAllocated.add(task.request());
        update(task.job(), allocated(task.job().id()).add(task.request()));
    }

    @Override
    public void deallocated(TaskState task) {
        totalAllocated = totalAllocated.subtract(task.request());
        update(task.job(), allocated(task.job().id()).subtract(task.request()));
    }

    private void update(JobState job, Resources newAllocated) {
        allocated.put(job.id(), newAllocated);
        shares.put(job.id(), share(newAllocated, total));
        if (tree.isPresent()) {
            setLeaf(tree.get(), job, newAllocated);
            tree.get().recompute(totalAllocated);
        }
    }

    /** Builds the plugin; {@code enableHierarchy} on the plugin's configuration turns on hierarchical DRF. */
    public static final class Factory implements PluginFactory<NoArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<NoArgs> argsType() {
            return NoArgs.class;
        }

        @Override
        public NoArgs defaultArgs() {
            return NoArgs.INSTANCE;
        }

        @Override
        public Plugin create(NoArgs args, Session session) {
            requireNonNull(args, "args is null");
            return new DrfPlugin(session, session.pluginEnabled(NAME, PluginFlag.HIERARCHY));
        }
    }
}
