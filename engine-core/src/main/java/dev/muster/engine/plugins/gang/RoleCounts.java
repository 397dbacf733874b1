package dev.muster.engine.plugins.gang;

import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.TaskStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Per-role gang checks ({@code minTaskMember}). They apply only when the job's minMember is at least
 * the sum of the roles' minimums, as in Volcano.
 */
final class RoleCounts {
    private RoleCounts() {}

    /**
     * Whether the role minimums must be counted: they apply, and one of them is positive (without one,
     * every check passes, so the readiness checks the allocate loop repeats skip counting).
     */
    private static boolean rolesApply(JobState job) {
        int total = 0;
        boolean positive = false;
        for (int minimum : job.job().minTaskMember().values()) {
            total += minimum;
            positive |= minimum > 0;
        }
        return positive && job.minMember() >= total;
    }

    private static Map<String, Integer> count(JobState job, Predicate<TaskState> counted) {
        Map<String, Integer> result = new HashMap<>();
        for (TaskState task : job.tasks()) {
            if (counted.test(task)) {
                result.merge(task.task().role(), 1, Integer::sum);
            }
        }
        return result;
    }

    private static boolean meetsMinimums(JobState job, Map<String, Integer> counts, boolean missingFails) {
        for (Map.Entry<String, Integer> entry : job.job().minTaskMember().entrySet()) {
            if (entry.getValue() == 0) {
                continue;
            }
            Integer actual = counts.get(entry.getKey());
            if ((actual == null && missingFails) || (actual == null ? 0 : actual) < entry.getValue()) {
                return false;
            }
        }
        return true;
    }

    static boolean taskValid(JobState job) {
        if (!rolesApply(job)) {
            return true;
        }
        return meetsMinimums(job, count(job, task -> task.status().isAllocated() || task.status() == TaskStatus.SUCCEEDED
                || task.status() == TaskStatus.PIPELINED || task.status() == TaskStatus.PENDING), true);
    }

    static boolean taskReady(JobState job) {
        if (!rolesApply(job)) {
            return true;
        }
        return meetsMinimums(job, count(job, task -> task.status().isAllocated() || task.status() == TaskStatus.SUCCEEDED
                || (task.status() == TaskStatus.PENDING && task.initRequest().isEmpty())), false);
    }

    static boolean taskPipelined(JobState job) {
        if (!rolesApply(job)) {
            return true;
        }
        return meetsMinimums(job, count(job, task -> task.status().isAllocated() || task.status() == TaskStatus.SUCCEEDED
                || task.status() == TaskStatus.PIPELINED
                || (task.status() == TaskStatus.PENDING && task.initRequest().isEmpty())), false);
    }

    static String describeShortRoles(JobState job) {
        Map<String, Integer> valid = count(job, task -> task.status().isAllocated() || task.status() == TaskStatus.SUCCEEDED
                || task.status() == TaskStatus.PIPELINED || task.status() == TaskStatus.PENDING);
        StringBuilder text = new StringBuilder();
        new java.util.TreeMap<>(job.job().minTaskMember()).forEach((role, min) -> {
            int actual = valid.getOrDefault(role, 0);
            if (min > 0 && actual < min) {
                if (text.length() > 0) {
                    text.append(", ");
                }
                text.append(String.format("task %s has %d of minTaskMember %d", role, actual, min));
            }
        });
        return text.toString();
    }
}
