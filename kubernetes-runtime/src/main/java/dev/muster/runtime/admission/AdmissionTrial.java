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
import dev.muster.engine.model.JobHistory;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Resources;
import dev.muster.engine.queue.JobUsage;
import dev.muster.engine.queue.Quota;
import dev.muster.runtime.history.JobHistoryStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

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

    /**
     * An admitted job whose pods are not its own tasks (other PodGroups hold them, as a workflow's
     * stages do): it counts as an Inqueue job of what its {@code minResources} exceed what the jobs with
     * a task in its namespace carrying every one of {@code taskLabels} already count for in admission
     * (allocated plus reserved, less what they run beyond their {@code minResources}, as the queue
     * plugins count them), read from the same snapshot as the rest, so the two never disagree.
     */
    public record Reservation(Job job, ImmutableMap<String, String> taskLabels) {
        public Reservation {
            requireNonNull(job, "job is null");
            checkArgument(job.phase() == PodGroupPhase.INQUEUE, "job %s: a reservation must be Inqueue: %s", job.id(), job.phase());
            checkArgument(job.minResources().isPresent(), "job %s: minResources is missing", job.id());
            taskLabels = ImmutableMap.copyOf(taskLabels);
        }
    }

    private final ClusterCache cache;
    private final SessionConfig config;
    private final Clock clock;
    private final Supplier<JobHistory> history;

    /** A trial on the cluster without any job history. */
    public AdmissionTrial(ClusterCache cache, SessionConfig config, Clock clock) {
        this(cache, config, clock, () -> JobHistory.EMPTY);
    }

    /** A trial on the cluster with the leader's job history, as the scheduler's own sessions see it. */
    @Inject
    public AdmissionTrial(ClusterCache cache, SessionConfig config, Clock clock, JobHistoryStore history) {
        this(cache, config, clock, requireNonNull(history, "history is null")::history);
    }

    private AdmissionTrial(ClusterCache cache, SessionConfig config, Clock clock, Supplier<JobHistory> history) {
        this.cache = requireNonNull(cache, "cache is null");
        this.config = requireNonNull(config, "config is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.history = history;
    }

    /**
     * The verdict on each pending job of {@code jobs}, by id, with the Inqueue ones counted as admitted
     * before the action runs. Ids must not be those of PodGroups in the cluster.
     */
    public ImmutableMap<JobId, Verdict> admit(List<Job> jobs) {
        return admit(jobs, List.of());
    }

    /** The same, with reservations counted as admitted. */
    public ImmutableMap<JobId, Verdict> admit(List<Job> jobs, List<Reservation> reservations) {
        return admit(cache.snapshot().cluster().withHistory(history.get()), jobs, reservations, config, clock);
    }

    /** What {@link #admit(List, List)} does, on a given cluster and configuration (a cluster dump's, for {@code what-if}). */
    public static ImmutableMap<JobId, Verdict> admit(ClusterSnapshot cluster, List<Job> jobs, List<Reservation> reservations, SessionConfig config,
            Clock clock) {
        List<Job> all = new ArrayList<>(jobs);
        if (!reservations.isEmpty()) {
            // what the reservations' pods already count for in their queues, by the queue plugins' own accounting
            Session counting = Session.open(cluster, config, clock);
            reservations.forEach(reservation -> all.add(outstanding(counting, reservation)));
        }
        return admit(cluster, all, config, clock);
    }

    /** What {@link #admit(List)} does, on a given cluster and configuration. */
    public static ImmutableMap<JobId, Verdict> admit(ClusterSnapshot cluster, List<Job> jobs, SessionConfig config, Clock clock) {
        TreeMap<JobId, Job> all = new TreeMap<>(cluster.jobs());
        for (Job asked : jobs) {
            // a PodGroup's priority is its class's value, as the cache converts it
            Integer classValue = cluster.priorityClasses().get(asked.priorityClassName());
            Job job = classValue == null ? asked : asked.withPriority(classValue);
            checkArgument(job.phase() == PodGroupPhase.PENDING || job.phase() == PodGroupPhase.INQUEUE,
                    "job %s: phase must be Pending or Inqueue: %s", job.id(), job.phase());
            checkArgument(job.minResources().isPresent(), "job %s: minResources is missing", job.id());
            checkArgument(all.put(job.id(), job) == null, "job %s: already in the cluster", job.id());
        }
        ClusterSnapshot trial = new ClusterSnapshot(cluster.nodes(), ImmutableSortedMap.copyOf(all), cluster.queues(), cluster.otherTasks(),
                cluster.priorityClasses(), cluster.hyperNodes(), cluster.history());
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

    private static Job outstanding(Session session, Reservation reservation) {
        Job job = reservation.job();
        Resources counted = Resources.EMPTY;
        for (JobState other : session.jobs()) {
            boolean labelled = other.job().id().namespace().equals(job.id().namespace()) && other.job().tasks().stream()
                    .anyMatch(task -> task.labels().entrySet().containsAll(reservation.taskLabels().entrySet()));
            if (labelled) {
                JobUsage usage = JobUsage.of(other);
                counted = counted.add(Quota.exceededPart(usage.allocated().add(usage.inqueue()), usage.elastic()));
            }
        }
        return job.withMinResources(Optional.of(Quota.exceededPart(job.minResources().orElseThrow(), counted)));
    }
}
