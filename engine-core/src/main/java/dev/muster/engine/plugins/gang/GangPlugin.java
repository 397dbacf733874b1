package dev.muster.engine.plugins.gang;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.JobOrder;
import dev.muster.engine.framework.JobPipelining;
import dev.muster.engine.framework.JobReadiness;
import dev.muster.engine.framework.JobStarvation;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.JobValidity;
import dev.muster.engine.framework.NoArgs;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionCloseListener;
import dev.muster.engine.framework.SubJobOrder;
import dev.muster.engine.framework.SubJobPipelining;
import dev.muster.engine.framework.SubJobReadiness;
import dev.muster.engine.framework.SubJobState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.framework.VictimSelector;
import dev.muster.engine.framework.Vote;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.TaskStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Gang scheduling: a job is ready only when {@code minMember} of its tasks (and each role's
 * {@code minTaskMember}) hold resources; victims are never taken from a running gang below its
 * minimum; jobs not yet ready are served first; a job's subgroups are gangs of their own, and each
 * subgroup policy needs {@code minSubGroups} of them; at session close a job that is not ready gets the
 * reason its gang could not be placed.
 */
public final class GangPlugin implements Plugin, JobValidity, JobReadiness, JobPipelining, JobStarvation, JobOrder,
        VictimSelector, SessionCloseListener, SubJobReadiness, SubJobPipelining, SubJobOrder {
    public static final String NAME = "gang";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> invalidReason(JobState job) {
        if (!RoleCounts.taskValid(job)) {
            return Optional.of("not enough valid pods of each task for the gang: " + RoleCounts.describeShortRoles(job));
        }
        if (!job.hasEnoughSubJobs()) {
            return Optional.of("not enough valid subgroups of each subgroup policy for the gang: " + job.minSubJobs());
        }
        int valid = job.validTaskCount();
        if (valid < job.minMember()) {
            return Optional.of(String.format("not enough pods for the gang: %d of minMember %d exist", valid, job.minMember()));
        }
        return Optional.empty();
    }

    @Override
    public boolean isReady(JobState job) {
        return RoleCounts.taskReady(job) && job.subJobsSatisfy(SubJobState::isReady) && job.isReady();
    }

    @Override
    public Vote isPipelined(JobState job) {
        return RoleCounts.taskPipelined(job) && job.subJobsSatisfy(SubJobState::isPipelined) && job.isPipelined()
                ? Vote.PERMIT : Vote.REJECT;
    }

    @Override
    public boolean isSubJobReady(SubJobState subJob) {
        return subJob.isReady();
    }

    @Override
    public Vote isSubJobPipelined(SubJobState subJob) {
        return subJob.isPipelined() ? Vote.PERMIT : Vote.REJECT;
    }

    /** Subgroups not yet ready come first, as jobs do. */
    @Override
    public int compareSubJobs(SubJobState left, SubJobState right) {
        boolean leftReady = left.isReady();
        boolean rightReady = right.isReady();
        if (leftReady == rightReady) {
            return 0;
        }
        return leftReady ? 1 : -1;
    }

    @Override
    public boolean isStarving(JobState job) {
        return job.isStarving();
    }

    @Override
    public int compareJobs(JobState left, JobState right) {
        boolean leftReady = left.isReady();
        boolean rightReady = right.isReady();
        if (leftReady == rightReady) {
            return 0;
        }
        return leftReady ? 1 : -1;
    }

    @Override
    public Optional<List<TaskState>> preemptable(TaskState preemptor, List<TaskState> candidates) {
        return Optional.of(keepGangsWhole(candidates));
    }

    @Override
    public Optional<List<TaskState>> reclaimable(TaskState reclaimer, List<TaskState> candidates) {
        return Optional.of(keepGangsWhole(candidates));
    }

    private static List<TaskState> keepGangsWhole(List<TaskState> candidates) {
        Map<JobId, Integer> occupied = new HashMap<>();
        List<TaskState> victims = new ArrayList<>();
        for (TaskState candidate : candidates) {
            JobState job = candidate.job();
            int ready = occupied.computeIfAbsent(job.id(), ignored -> job.readyTaskCount());
            if (ready > job.minMember()) {
                occupied.put(job.id(), ready - 1);
                victims.add(candidate);
            }
        }
        return victims;
    }

    @Override
    public void sessionClosed(Session session) {
        for (JobState job : session.jobs()) {
            if (job.tasks().isEmpty() || job.isReady()) {
                continue;
            }
            int placed = job.readyTaskCount() + Math.max(job.count(TaskStatus.PIPELINED), job.bestAttempt());
            StringBuilder reason = new StringBuilder();
            reason.append(Math.min(placed, job.minMember())).append('/').append(job.minMember()).append(" tasks of the gang fit");
            String details = describe(job);
            if (!details.isEmpty()) {
                reason.append(": ").append(details);
            }
            job.markUnschedulable(reason.toString());
        }
    }

    private static String describe(JobState job) {
        Map<String, Integer> reasons = new java.util.TreeMap<>();
        job.queueNotes().values().forEach(note -> reasons.merge(note, 1, Integer::sum));
        job.fitErrors().values().forEach(error -> reasons.merge(error, 1, Integer::sum));
        StringBuilder text = new StringBuilder();
        reasons.forEach((reason, count) -> {
            if (text.length() > 0) {
                text.append("; ");
            }
            text.append(count == 1 ? "1 task: " : count + " tasks: ").append(reason);
        });
        return text.toString();
    }

    /** Builds the plugin; it takes no arguments. */
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
            return new GangPlugin();
        }
    }
}
