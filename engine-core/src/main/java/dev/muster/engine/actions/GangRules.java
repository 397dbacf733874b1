package dev.muster.engine.actions;

import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.TaskStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** When a task of a gang fails to fit, whether trying its other tasks can still make the gang. */
final class GangRules {
    private GangRules() {}

    /**
     * Volcano's rule: stop at once when every task is needed (minMember equals the task count);
     * otherwise continue while the tasks not of a failed role could still reach minMember, or, when
     * roles have their own minimums, while no failed role is short of its minimum.
     */
    static boolean needContinueAllocating(JobState job, Set<String> failedRoles) {
        if (job.minMember() == job.tasks().size()) {
            return false;
        }
        Map<String, Integer> minTaskMember = job.job().minTaskMember();
        int minTotal = minTaskMember.values().stream().mapToInt(Integer::intValue).sum();
        if (job.minMember() < minTotal) {
            int left = 0;
            for (TaskState task : job.tasksWithStatus(TaskStatus.PENDING)) {
                if (!failedRoles.contains(task.task().role())) {
                    left++;
                }
            }
            return job.readyTaskCount() + left >= job.minMember();
        }
        Map<String, Integer> allocated = allocatedByRole(job);
        for (String role : failedRoles) {
            int min = minTaskMember.getOrDefault(role, 0);
            if (min != 0 && allocated.getOrDefault(role, 0) < min) {
                return false;
            }
        }
        return true;
    }

    /** Per role: tasks holding resources or succeeded, plus pending best-effort tasks. */
    static Map<String, Integer> allocatedByRole(JobState job) {
        Map<String, Integer> result = new HashMap<>();
        for (TaskState task : job.tasks()) {
            TaskStatus status = task.status();
            if (status.isAllocated() || status == TaskStatus.SUCCEEDED
                    || (status == TaskStatus.PENDING && task.initRequest().isEmpty())) {
                result.merge(task.task().role(), 1, Integer::sum);
            }
        }
        return result;
    }
}
