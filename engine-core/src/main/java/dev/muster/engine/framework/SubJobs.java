package dev.muster.engine.framework;

import dev.muster.engine.model.Job;
import dev.muster.engine.model.SubGroupPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits a job's tasks into subgroups, as Volcano's {@code JobInfo.addTaskToSubJob}: a task joins the
 * subgroup named by its labels under the first policy that matches it, else the default subgroup. The
 * default subgroup is the whole gang ({@code minMember}) when the job has no policy, else a gang of one.
 */
final class SubJobs {
    /** Volcano hashes a subgroup name longer than this. */
    private static final int MAX_NAME_LENGTH = 128;

    private SubJobs() {}

    static Map<String, SubJobState> build(JobState job) {
        Job spec = job.job();
        Map<String, SubJobState> subJobs = new LinkedHashMap<>();
        for (TaskState task : job.tasks()) {
            SubJobState subJob = null;
            for (SubGroupPolicy policy : spec.subGroupPolicies()) {
                List<String> values = policy.matchValues(task.task().labels());
                if (!values.isEmpty()) {
                    String groupId = spec.uid() + "/" + policy.name();
                    String id = groupId + "-" + name(values);
                    subJob = subJobs.computeIfAbsent(id, ignored -> new SubJobState(id, groupId, job,
                            policy.subGroupSize().orElse(1), matchIndex(values.get(0)), policy.networkTopology()));
                    break;
                }
            }
            if (subJob == null) {
                subJob = subJobs.computeIfAbsent(spec.uid(), id -> defaultSubJob(job));
            }
            subJob.addTask(task);
        }
        return subJobs;
    }

    private static SubJobState defaultSubJob(JobState job) {
        Job spec = job.job();
        int minAvailable = spec.subGroupPolicies().isEmpty() ? spec.minMember() : 1;
        return new SubJobState(spec.uid(), spec.uid(), job, minAvailable, 0, spec.networkTopology());
    }

    private static String name(List<String> values) {
        String name = String.join("-", values);
        if (name.length() > MAX_NAME_LENGTH) {
            // Volcano uses an FNV hash here; any stable short name serves, since ids never leave the session
            return Integer.toHexString(name.hashCode());
        }
        return name;
    }

    private static int matchIndex(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Per policy group, the {@code minSubGroups} the job needs. */
    static Map<String, Integer> minSubJobs(Job job) {
        Map<String, Integer> result = new LinkedHashMap<>();
        for (SubGroupPolicy policy : job.subGroupPolicies()) {
            result.put(job.uid() + "/" + policy.name(), policy.minSubGroups());
        }
        return result;
    }
}
