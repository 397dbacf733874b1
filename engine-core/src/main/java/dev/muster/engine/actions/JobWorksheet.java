package dev.muster.engine.actions;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SubJobState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.TaskStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * What is left to place of a job that is placed subgroup by subgroup (Volcano's {@code JobWorksheet}):
 * its subgroups with pending tasks, the ones needed to reach each policy's {@code minSubGroups} first,
 * then in subgroup order; and per subgroup its pending tasks in task order. Dry runs work on copies.
 * Not thread-safe.
 */
final class JobWorksheet {
    private final PriorityQueue<SubJobState> subJobs;
    private final Map<SubJobState, PriorityQueue<TaskState>> tasks;

    private JobWorksheet(PriorityQueue<SubJobState> subJobs, Map<SubJobState, PriorityQueue<TaskState>> tasks) {
        this.subJobs = requireNonNull(subJobs, "subJobs is null");
        this.tasks = requireNonNull(tasks, "tasks is null");
    }

    static JobWorksheet of(Session session, JobState job) {
        Map<String, Integer> satisfied = new HashMap<>();
        List<SubJobState> unready = new ArrayList<>();
        for (SubJobState subJob : job.subJobs()) {
            if (session.plugins().isSubJobReady(subJob)) {
                satisfied.merge(subJob.groupId(), 1, Integer::sum);
            } else {
                unready.add(subJob);
            }
        }
        unready.sort(session.subJobOrder());
        Set<SubJobState> required = new HashSet<>();
        for (SubJobState subJob : unready) {
            int count = satisfied.getOrDefault(subJob.groupId(), 0);
            if (count < job.minSubJobs().getOrDefault(subJob.groupId(), 0)) {
                required.add(subJob);
                satisfied.put(subJob.groupId(), count + 1);
            }
        }
        Comparator<SubJobState> order = Comparator.comparing((SubJobState subJob) -> !required.contains(subJob))
                .thenComparing(session.subJobOrder());
        JobWorksheet worksheet = new JobWorksheet(new PriorityQueue<>(order), new HashMap<>());
        for (SubJobState subJob : job.subJobs()) {
            PriorityQueue<TaskState> pending = new PriorityQueue<>(session.taskOrder());
            for (TaskState task : subJob.tasks()) {
                if (task.status() == TaskStatus.PENDING && !task.task().gated() && !task.bestEffort()) {
                    pending.add(task);
                }
            }
            if (!pending.isEmpty()) {
                worksheet.subJobs.add(subJob);
                worksheet.tasks.put(subJob, pending);
            }
        }
        return worksheet;
    }

    boolean isEmpty() {
        return subJobs.isEmpty();
    }

    /** The next subgroup to place, taken off the worksheet. */
    SubJobState pollSubJob() {
        return subJobs.poll();
    }

    void pushSubJob(SubJobState subJob) {
        subJobs.add(subJob);
    }

    PriorityQueue<TaskState> tasks(SubJobState subJob) {
        return tasks.get(subJob);
    }

    /** A copy for a dry run: its queues are separate, the subgroups and tasks shared. */
    JobWorksheet copy() {
        Map<SubJobState, PriorityQueue<TaskState>> copied = new HashMap<>();
        tasks.forEach((subJob, queue) -> copied.put(subJob, new PriorityQueue<>(queue)));
        return new JobWorksheet(new PriorityQueue<>(subJobs), copied);
    }

    /** Takes over what a dry run left, once its placement is chosen. */
    void takeOver(JobWorksheet other) {
        subJobs.clear();
        subJobs.addAll(other.subJobs);
        tasks.clear();
        tasks.putAll(other.tasks);
    }
}
