package dev.muster.runtime.admission;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.inject.Inject;
import dev.muster.engine.actions.EnqueueAction;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import java.time.Clock;
import java.util.List;
import java.util.TreeMap;

/**
 * Would the scheduler admit these would-be PodGroups now? Adds them to the cluster as the scheduler's
 * cache has it, opens a session with the scheduler's configuration and runs the enqueue action on it,
 * so the answer follows the configured plugins (proportion or capacity, overcommit, ...) and their job
 * order (priority, then creation time) exactly, reasons included. Nothing is written and the session is
 * dropped, so asking changes no decision of the scheduler.
 *
 * <p>A {@link PodGroupPhase#INQUEUE} job is a reservation: it counts against its queue as an admitted
 * PodGroup whose pods do not exist yet ({@code minResources} minus nothing allocated). A
 * {@link PodGroupPhase#PENDING} one is a candidate, judged after the PodGroups already pending in the
 * cluster that come before it in its queue's order. A job's priority is the value of its
 * {@code priorityClassName} when the cluster has that PriorityClass, as for a PodGroup.
 */
@ThreadSafe
public final class AdmissionTrial {
    /** The trial's answer for one candidate. */
    public sealed interface Verdict permits Admitted, Waits {}

    /** The enqueue action admits it. */
    public record Admitted() implements Verdict {}

    /** It is not admitted, and why, in the enqueue action's words. */
    public record Waits(String reason) implements Verdict {
        public Waits {
            requireNonNull(reason, "reason is null");
        }
    }

    private final ClusterCache cache;
    private final SessionConfig config;
    private final Clock clock;

    @Inject
    public AdmissionTrial(ClusterCache cache, SessionConfig config, Clock clock) {
        this.cache = requireNonNull(cache, "cache is null");
        this.config = requireNonNull(config, "config is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * The verdict on each pending job of {@code jobs}, by id, with the Inqueue ones counted as admitted
     * before the action runs. Ids must not be those of PodGroups in the cluster.
     */
    public ImmutableMap<JobId, Verdict> admit(List<Job> jobs) {
        ClusterSnapshot cluster = cache.snapshot().cluster();
        return admit(cluster, jobs, config, clock);
    }

    /** The same on a given cluster and configuration: what {@link #admit(List)} does, for tests and {@code what-if}. */
    public static ImmutableMap<JobId, Verdict> admit(ClusterSnapshot cluster, List<Job> jobs, SessionConfig config, Clock clock) {
        TreeMap<JobId, Job> all = new TreeMap<>(cluster.jobs());
        for (Job asked : jobs) {
            // a PodGroup's priority is its class's value, as the cache converts it
            Integer classValue = cluster.priorityClasses().get(asked.priorityClassName());
            Job job = classValue == null ? asked : new Job(asked.id(), asked.uid(), asked.queue(), asked.minMember(), asked.minTaskMember(),
                    asked.minResources(), classValue, asked.priorityClassName(), asked.phase(), asked.created(), asked.networkTopology(),
                    asked.annotations(), asked.tasks(), asked.problems(), asked.subGroupPolicies());
            checkArgument(job.phase() == PodGroupPhase.PENDING || job.phase() == PodGroupPhase.INQUEUE,
                    "job %s: phase must be Pending or Inqueue: %s", job.id(), job.phase());
            checkArgument(job.minResources().isPresent(), "job %s: minResources is missing", job.id());
            checkArgument(all.put(job.id(), job) == null, "job %s: already in the cluster", job.id());
        }
        ClusterSnapshot trial = new ClusterSnapshot(cluster.nodes(), ImmutableSortedMap.copyOf(all), cluster.queues(), cluster.otherTasks(),
                cluster.priorityClasses(), cluster.hyperNodes());
        Session session = Session.open(trial, config, clock);
        new EnqueueAction().execute(session);
        ImmutableMap.Builder<JobId, Verdict> verdicts = ImmutableMap.builder();
        for (Job job : jobs) {
            if (job.phase() != PodGroupPhase.PENDING) {
                continue;
            }
            JobState state = session.job(job.id()).orElseThrow();
            verdicts.put(job.id(), state.phase() == PodGroupPhase.INQUEUE ? new Admitted()
                    : new Waits(state.admissionNote().orElse("the queue's admission checks refuse it")));
        }
        return verdicts.buildOrThrow();
    }
}
