package dev.muster.engine.cache;


import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds, after a read, the objects to report as invalid: those with a problem of severity ERROR (a bad
 * field; the object is left out, or kept with its job pending) and those whose job has problems (a bad
 * PodGroup field or a queue that does not exist; for an automatic PodGroup, reported on its pod).
 * Warnings that change nothing for scheduling, or that a moment fixes (a PodGroup whose pods are not
 * all created yet), are only logged. Pods of other schedulers are never reported: they are not ours.
 */
final class InvalidObjects {
    private InvalidObjects() {}

    /**
     * @param read the objects read, in reading order
     * @param podGroups the jobs that have a PodGroup object; any other job is an automatic one of a single pod
     */
    static ImmutableList<InvalidObject> find(List<ManifestObject> read, ManifestResult result, Set<JobId> podGroups,
            ImmutableSet<String> schedulerNames) {
        Map<String, Set<String>> problems = new LinkedHashMap<>();
        for (ManifestProblem problem : result.errors()) {
            if (!problem.name().isEmpty()) {
                String text = problem.field().isEmpty() ? problem.message() : problem.field() + ": " + problem.message();
                problems.computeIfAbsent(problem.kind() + " " + problem.name(), key -> new LinkedHashSet<>()).add(text);
            }
        }
        for (Job job : result.snapshot().jobs().values()) {
            if (job.problems().isEmpty()) {
                continue;
            }
            String object = podGroups.contains(job.id()) || job.tasks().isEmpty()
                    ? "PodGroup " + job.id()
                    : "Pod " + job.tasks().get(0).id();
            problems.computeIfAbsent(object, key -> new LinkedHashSet<>()).addAll(job.problems());
        }
        if (problems.isEmpty()) {
            return ImmutableList.of();
        }
        ImmutableList.Builder<InvalidObject> invalid = ImmutableList.builder();
        for (ManifestObject object : read) {
            // of two objects with one key (PodGroups of two APIs), the first read is the one used
            Set<String> texts = problems.remove(object.kind().kind() + " " + object.displayName());
            if (texts != null && (object.kind() != ResourceKind.POD || ours(object, schedulerNames))) {
                invalid.add(new InvalidObject(object.kind().apiVersion(), object.kind().kind(), object.namespace(), object.name(),
                        object.body().path("metadata").path("uid").asText(""), ImmutableList.copyOf(texts)));
            }
        }
        return invalid.build();
    }

    private static boolean ours(ManifestObject pod, ImmutableSet<String> schedulerNames) {
        return schedulerNames.contains(pod.body().path("spec").path("schedulerName").asText(SchedulingApi.DEFAULT_SCHEDULER_NAME));
    }
}
