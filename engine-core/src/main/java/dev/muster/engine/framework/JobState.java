package dev.muster.engine.framework;

import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NetworkTopology;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A job during one session: its tasks' current statuses, counts by status, the resources it holds,
 * its phase and why tasks did not fit. Not thread-safe; it lives and dies with its {@link Session}.
 */
public final class JobState {
    private final Job job;
    private final Map<TaskId, TaskState> tasks = new LinkedHashMap<>();
    private final EnumMap<TaskStatus, Integer> counts = new EnumMap<>(TaskStatus.class);
    private final Map<TaskId, String> fitErrors = new TreeMap<>();
    private final Map<TaskId, String> queueNotes = new TreeMap<>();
    private Resources allocated = Resources.EMPTY;
    private PodGroupPhase phase;
    private Optional<String> unschedulableReason = Optional.empty();
    private int bestAttempt;
    private Optional<String> admissionNote = Optional.empty();
    private Optional<String> reservationNote = Optional.empty();
    private final List<String> warnings = new ArrayList<>();
    private final Map<String, SubJobState> subJobs;
    private final Map<TaskId, SubJobState> subJobOfTask = new HashMap<>();
    private final Map<String, Integer> minSubJobs;
    private Optional<NetworkTopology> networkTopology;
    private Optional<String> allocatedHyperNode = Optional.empty();
    private int pendingBestEffort;

    JobState(Job job) {
        this.job = requireNonNull(job, "job is null");
        this.phase = job.phase();
        for (Task task : job.tasks()) {
            TaskState state = new TaskState(task, this);
            tasks.put(task.id(), state);
            counts.merge(state.status(), 1, Integer::sum);
            if (state.status() == TaskStatus.PENDING && state.bestEffort()) {
                pendingBestEffort++;
            }
            if (state.status().isAllocated()) {
                allocated = allocated.add(task.request());
            }
        }
        this.networkTopology = job.networkTopology();
        this.subJobs = SubJobs.build(this);
        for (SubJobState subJob : subJobs.values()) {
            subJob.tasks().forEach(task -> subJobOfTask.put(task.id(), subJob));
        }
        this.minSubJobs = SubJobs.minSubJobs(job);
    }

    public Job job() {
        return job;
    }

    public JobId id() {
        return job.id();
    }

    public QueueName queue() {
        return job.queue();
    }

    public int minMember() {
        return job.minMember();
    }

    public int priority() {
        return job.priority();
    }

    public PodGroupPhase phase() {
        return phase;
    }

    public void setPhase(PodGroupPhase phase) {
        this.phase = requireNonNull(phase, "phase is null");
    }

    /** Pending or no phase yet: not admitted by enqueue. */
    public boolean isPending() {
        return phase == PodGroupPhase.PENDING;
    }

    public Collection<TaskState> tasks() {
        return Collections.unmodifiableCollection(tasks.values());
    }

    public List<TaskState> tasksWithStatus(TaskStatus status) {
        List<TaskState> result = new ArrayList<>();
        for (TaskState task : tasks.values()) {
            if (task.status() == status) {
                result.add(task);
            }
        }
        return result;
    }

    public int count(TaskStatus status) {
        return counts.getOrDefault(status, 0);
    }

    /** The sum of the requests of tasks that hold resources (Allocated, Binding, Bound, Running). */
    public Resources allocated() {
        return allocated;
    }

    /** Bound, Binding, Running, Allocated and Succeeded: tasks that count towards the gang. */
    public int readyTaskCount() {
        return count(TaskStatus.BOUND) + count(TaskStatus.BINDING) + count(TaskStatus.RUNNING)
                + count(TaskStatus.ALLOCATED) + count(TaskStatus.SUCCEEDED);
    }

    public int waitingTaskCount() {
        return count(TaskStatus.PIPELINED);
    }

    /** Tasks that can still make up the gang: allocated, succeeded, pipelined and pending. */
    public int validTaskCount() {
        return readyTaskCount() + count(TaskStatus.PIPELINED) + count(TaskStatus.PENDING);
    }

    /** Pending best-effort tasks; Volcano counts them towards readiness. */
    public int pendingBestEffortCount() {
        return pendingBestEffort;
    }

    public boolean isReady() {
        return readyTaskCount() + pendingBestEffortCount() >= job.minMember();
    }

    public boolean isPipelined() {
        return waitingTaskCount() + readyTaskCount() + pendingBestEffortCount() >= job.minMember();
    }

    public boolean isStarving() {
        return waitingTaskCount() + readyTaskCount() < job.minMember();
    }

    /**
     * How long the job's gang has run at {@code now}, in seconds: since the latest of its running pods
     * started, 0 while fewer than minMember of its pods run (a gang runs once its last member does).
     */
    public double gangRunSeconds(Instant now) {
        Instant latest = null;
        int running = 0;
        for (TaskState task : tasks()) {
            if (task.status() == TaskStatus.RUNNING && task.task().started().isPresent()) {
                running++;
                Instant started = task.task().started().get();
                latest = latest == null || started.isAfter(latest) ? started : latest;
            }
        }
        if (latest == null || running < job.minMember()) {
            return 0;
        }
        return Math.max(0, Duration.between(latest, now).toMillis() / 1000.0);
    }

    /** Why a task could not be placed this session, by task. */
    public Map<TaskId, String> fitErrors() {
        return Collections.unmodifiableMap(fitErrors);
    }

    public void recordFitError(TaskId task, String reason) {
        fitErrors.put(requireNonNull(task, "task is null"), requireNonNull(reason, "reason is null"));
    }

    /** Set at session close when the gang could not be placed: the Unschedulable condition's message. */
    public Optional<String> unschedulableReason() {
        return unschedulableReason;
    }

    public void markUnschedulable(String reason) {
        this.unschedulableReason = Optional.of(requireNonNull(reason, "reason is null"));
    }

    /** Why the job's queue would not take a task this session (not a fit error: no node was tried). */
    public Map<TaskId, String> queueNotes() {
        return Collections.unmodifiableMap(queueNotes);
    }

    public void recordQueueNote(TaskId task, String reason) {
        queueNotes.put(requireNonNull(task, "task is null"), requireNonNull(reason, "reason is null"));
    }

    /** Why enqueue did not admit the job this session. */
    public Optional<String> admissionNote() {
        return admissionNote;
    }

    public void recordAdmissionNote(String note) {
        this.admissionNote = Optional.of(requireNonNull(note, "note is null"));
    }

    /** What a plugin holds for the job beyond its placed pods (room for executors to come), in words. */
    public Optional<String> reservationNote() {
        return reservationNote;
    }

    public void recordReservation(String note) {
        this.reservationNote = Optional.of(requireNonNull(note, "note is null"));
    }

    /**
     * Problems with the job's hints that a plugin ignored rather than refused the job for (a malformed
     * annotation), in the order recorded; the runtime posts each as a Warning Event on the PodGroup.
     */
    public List<String> warnings() {
        return Collections.unmodifiableList(warnings);
    }

    /** Records a warning once: the same text recorded twice in a session is kept once. */
    public void recordWarning(String warning) {
        requireNonNull(warning, "warning is null");
        if (!warnings.contains(warning)) {
            warnings.add(warning);
        }
    }

    /** The most tasks a discarded attempt managed to place this session (they were given back). */
    public int bestAttempt() {
        return bestAttempt;
    }

    public void recordAttempt(int placed) {
        bestAttempt = Math.max(bestAttempt, placed);
    }

    /** The job's subgroups: those its subgroup policies make, and the default one for the other tasks. */
    public Collection<SubJobState> subJobs() {
        return Collections.unmodifiableCollection(subJobs.values());
    }

    public SubJobState subJobOf(TaskState task) {
        SubJobState subJob = subJobOfTask.get(task.id());
        checkState(subJob != null, "BUG: task %s of job %s is in no subgroup", task.id(), id());
        return subJob;
    }

    public boolean hasSubGroupPolicy() {
        return !job.subGroupPolicies().isEmpty();
    }

    /**
     * Whether, for each policy with {@code minSubGroups}, that many of its subgroups meet the condition
     * (Volcano's {@code checkSubJobCondition}); a job without policies always does.
     */
    public boolean subJobsSatisfy(Predicate<SubJobState> condition) {
        for (Map.Entry<String, Integer> entry : minSubJobs.entrySet()) {
            if (entry.getValue() == 0) {
                continue;
            }
            long meeting = subJobs.values().stream()
                    .filter(subJob -> subJob.groupId().equals(entry.getKey()) && condition.test(subJob))
                    .count();
            if (meeting < entry.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Whether each policy made at least {@code minSubGroups} subgroups (Volcano's {@code CheckSubJobValid}). */
    public boolean hasEnoughSubJobs() {
        for (Map.Entry<String, Integer> entry : minSubJobs.entrySet()) {
            long made = subJobs.values().stream().filter(subJob -> subJob.groupId().equals(entry.getKey())).count();
            if (made < entry.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Per policy group, how many subgroups the job needs. */
    public Map<String, Integer> minSubJobs() {
        return Collections.unmodifiableMap(minSubJobs);
    }

    /** The job's topology after the session's adjustments (tier names resolved, soft made hard). */
    public Optional<NetworkTopology> networkTopology() {
        return networkTopology;
    }

    void setNetworkTopology(Optional<NetworkTopology> topology) {
        this.networkTopology = requireNonNull(topology, "topology is null");
    }

    /** The highest tier the whole job may span, when its topology is hard and says which. */
    public Optional<Integer> hardTierLimit() {
        return SubJobState.hardTierLimit(networkTopology);
    }

    /** A topology on the job or on any of its subgroups. */
    public boolean containsNetworkTopology() {
        return networkTopology.isPresent() || subJobs.values().stream().anyMatch(SubJobState::withNetworkTopology);
    }

    /** A hard tier limit on the job or on any of its subgroups: such jobs are placed hypernode by hypernode. */
    public boolean containsHardTopology() {
        return hardTierLimit().isPresent() || subJobs.values().stream().anyMatch(subJob -> subJob.hardTierLimit().isPresent());
    }

    /** The lowest hypernode holding every placed task of the job, once the topology allocation knows it. */
    public Optional<String> allocatedHyperNode() {
        return allocatedHyperNode;
    }

    public void setAllocatedHyperNode(Optional<String> hyperNode) {
        this.allocatedHyperNode = requireNonNull(hyperNode, "hyperNode is null");
    }

    /** Forgets why tasks did not fit, for the tasks the filter selects (before another dry run). */
    public void clearFitErrors(Predicate<TaskId> which) {
        fitErrors.keySet().removeIf(which);
    }

    void updateStatus(TaskState task, TaskStatus status) {
        TaskStatus old = task.status();
        counts.merge(old, -1, Integer::sum);
        if (task.bestEffort()) {
            // a task's request never changes, so only its moves in and out of Pending count
            pendingBestEffort += (status == TaskStatus.PENDING ? 1 : 0) - (old == TaskStatus.PENDING ? 1 : 0);
        }
        if (old.isAllocated()) {
            allocated = allocated.subtract(task.request());
        }
        task.setStatus(status);
        counts.merge(status, 1, Integer::sum);
        if (status.isAllocated()) {
            allocated = allocated.add(task.request());
        }
    }

    @Override
    public String toString() {
        return job.id().toString();
    }
}
