package dev.muster.engine.plugins.drf;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.AllocationListener;
import dev.muster.engine.framework.JobOrder;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NoArgs;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.framework.VictimSelector;
import dev.muster.engine.model.JobId;
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
 */
public final class DrfPlugin implements Plugin, JobOrder, VictimSelector, AllocationListener {
    public static final String NAME = "drf";
    private static final double SHARE_DELTA = 0.000001;

    private final Resources total;
    private final Map<JobId, Resources> allocated = new HashMap<>();
    private final Map<JobId, Double> shares = new HashMap<>();

    DrfPlugin(Session session) {
        this.total = session.totalResource();
        for (JobState job : session.jobs()) {
            allocated.put(job.id(), job.allocated());
            shares.put(job.id(), share(job.allocated(), total));
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The dominant share: the largest allocated/total over the cluster's resources. */
    public static double share(Resources allocated, Resources total) {
        double result = 0;
        for (String name : total.names()) {
            result = Math.max(result, fraction(allocated.get(name), total.get(name)));
        }
        return result;
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
    public void allocated(TaskState task) {
        update(task.job().id(), allocated.getOrDefault(task.job().id(), Resources.EMPTY).add(task.request()));
    }

    @Override
    public void deallocated(TaskState task) {
        update(task.job().id(), allocated.getOrDefault(task.job().id(), Resources.EMPTY).subtract(task.request()));
    }

    private void update(JobId job, Resources newAllocated) {
        allocated.put(job, newAllocated);
        shares.put(job, share(newAllocated, total));
    }

    /** Builds the plugin; hierarchical DRF ({@code enableHierarchy}) is not supported yet. */
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
            return new DrfPlugin(session);
        }
    }
}
