package dev.muster.engine.plugins.overcommit;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.AdmissionCheck;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.framework.Vote;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Resources;
import dev.muster.engine.queue.JobUsage;
import dev.muster.engine.queue.Quota;
import java.util.Optional;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admits jobs while the cluster, overcommitted by a factor, still has room for their minimum resources
 * (Volcano's {@code overcommit}): {@code inqueue + minResources ≤ total × factor − used}, on the
 * dimensions the job asks for, where {@code inqueue} is what admitted jobs have reserved. It only
 * gates admission; allocation is not affected.
 */
public final class OvercommitPlugin implements Plugin, AdmissionCheck {
    public static final String NAME = "overcommit";
    private static final Logger log = LoggerFactory.getLogger(OvercommitPlugin.class);

    private final Resources idle;
    private Resources inqueue = Resources.EMPTY;

    OvercommitPlugin(OvercommitArgs args, Session session) {
        Resources used = Resources.EMPTY;
        for (NodeState node : session.nodes()) {
            used = used.add(node.used());
        }
        this.idle = session.totalResource().multiply(args.effectiveFactor()).subtract(used);
        for (JobState job : session.jobs()) {
            if (job.job().minResources().isEmpty()) {
                continue;
            }
            PodGroupPhase phase = job.job().phase();
            if (phase == PodGroupPhase.INQUEUE) {
                inqueue = inqueue.add(JobUsage.admittedResources(job));
            } else if (phase == PodGroupPhase.RUNNING && allocatedCount(job) >= job.minMember()) {
                inqueue = inqueue.add(JobUsage.of(job).inqueue());
            }
        }
    }

    private static int allocatedCount(JobState job) {
        int count = 0;
        for (TaskState task : job.tasks()) {
            if (task.status().isAllocated()) {
                count++;
            }
        }
        return count;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Vote isEnqueueable(JobState job) {
        if (job.job().minResources().isEmpty()) {
            return Vote.PERMIT;
        }
        Resources minimum = job.job().minResources().get();
        TreeSet<String> overused = Quota.insufficientOnRequested(inqueue.add(minimum), idle, minimum);
        if (overused.isEmpty()) {
            return Vote.PERMIT;
        }
        log.debug("job={} rejected: resource in cluster is overused on {} (idle <{}>, inqueue <{}>)", job.id(), overused, idle, inqueue);
        return Vote.REJECT;
    }

    @Override
    public Optional<String> explainRejection(JobState job) {
        Resources minimum = job.job().minResources().orElse(Resources.EMPTY);
        Resources wanted = inqueue.add(minimum);
        TreeSet<String> overused = Quota.insufficientOnRequested(wanted, idle, minimum);
        return Optional.of("the cluster is full: admitted jobs plus this one's minResources would need more than is idle"
                + " (allocatable times the overcommit factor, minus what is used): " + Quota.describeExcess(overused, wanted, idle));
    }

    @Override
    public void enqueued(JobState job) {
        if (job.job().minResources().isPresent()) {
            inqueue = inqueue.add(JobUsage.admittedResources(job));
        }
    }

    /** Builds the plugin from its {@link OvercommitArgs}. */
    public static final class Factory implements PluginFactory<OvercommitArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<OvercommitArgs> argsType() {
            return OvercommitArgs.class;
        }

        @Override
        public OvercommitArgs defaultArgs() {
            return OvercommitArgs.DEFAULTS;
        }

        @Override
        public Plugin create(OvercommitArgs args, Session session) {
            requireNonNull(args, "args is null");
            return new OvercommitPlugin(args, session);
        }
    }
}
