package dev.muster.engine.cache;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.cache.PodGroupConverter.ConvertedJob;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Task;
import dev.muster.engine.yaml.Texts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Puts pods into their jobs. Our pods join the PodGroup they name, or, naming none, an automatic
 * PodGroup of one as Volcano's podgroup controller creates; other schedulers' pods on a node are kept
 * apart because they hold that node's resources. Then checks each job's queue and gang size.
 */
final class JobAssembler {
    private JobAssembler() {}

    record Assembled(ImmutableSortedMap<JobId, Job> jobs, ImmutableList<Task> otherTasks) {}

    static Assembled assemble(
            List<ConvertedJob> podGroups,
            List<ConvertedPod> pods,
            Set<QueueName> queues,
            PriorityClasses priorityClasses,
            Problems problems,
            boolean live) {
        Map<JobId, ConvertedJob> jobs = new LinkedHashMap<>();
        podGroups.forEach(job -> jobs.put(job.job().id(), job));
        Map<JobId, List<Task>> tasks = new LinkedHashMap<>();
        List<Task> others = new ArrayList<>();
        for (ConvertedPod pod : pods) {
            JobId id = pod.task().job();
            if (!pod.ours()) {
                if (pod.holdsNode()) {
                    others.add(pod.task());
                }
                continue;
            }
            if (!jobs.containsKey(id)) {
                if (pod.awaitsGang()) {
                    // in a cluster the bridge names the gang within moments of the pod's creation: nothing to report
                    if (!live) {
                        problems.add(pod.object().warning(pod.groupField().get(), "the pod is in a gang that no "
                                + SchedulingApi.GROUP_NAME_ANNOTATION + " annotation names yet; it is not scheduled until a bridge names it"));
                    }
                    if (pod.holdsNode()) {
                        others.add(pod.task());
                    }
                    continue;
                }
                if (pod.groupField().isPresent()) {
                    // as in Volcano, the pod is not scheduled, but where it runs it still uses the node; in a
                    // cluster, a finished pod outliving its job's deleted PodGroup is normal
                    if (!live || !pod.task().status().isTerminated()) {
                        problems.add(pod.object().warning(
                                pod.groupField().get(), "PodGroup " + id + " does not exist; the pod is not scheduled"));
                    }
                    if (pod.holdsNode()) {
                        others.add(pod.task());
                    }
                    continue;
                }
                jobs.put(id, new ConvertedJob(pod.object(), automaticJob(pod, priorityClasses)));
            }
            tasks.computeIfAbsent(id, ignored -> new ArrayList<>()).add(pod.task());
        }
        ImmutableSortedMap.Builder<JobId, Job> assembled = ImmutableSortedMap.naturalOrder();
        for (ConvertedJob converted : jobs.values()) {
            ImmutableList<Task> jobTasks = tasks.getOrDefault(converted.job().id(), List.of()).stream()
                    .sorted(Comparator.comparing(Task::id))
                    .collect(ImmutableList.toImmutableList());
            assembled.put(converted.job().id(), check(converted, jobTasks, queues, problems, live));
        }
        others.sort(Comparator.comparing(Task::id));
        return new Assembled(assembled.build(), ImmutableList.copyOf(others));
    }

    private static Job check(ConvertedJob converted, ImmutableList<Task> tasks, Set<QueueName> queues, Problems problems, boolean live) {
        Job job = converted.job().withTasks(tasks);
        ResourceKind kind = converted.object().kind();
        boolean automatic = kind == ResourceKind.POD;
        if (automatic && tasks.stream().anyMatch(task -> task.status().isScheduled())) {
            // the podgroup controller made it long ago and the scheduler has since run it
            job = withPhase(job, PodGroupPhase.RUNNING);
        } else if (kind == ResourceKind.WORKLOAD_POD_GROUP) {
            // nobody writes a phase on it for Muster: its pods say how far it got
            job = withPhase(job, WorkloadPodGroupConverter.phase(job));
        }
        if (!queues.contains(job.queue())) {
            // a reason is printed and posted as an event: a huge name must not flood it
            String message = Texts.shortenedQuotes("queue '" + job.queue() + "' does not exist");
            String field = automatic || kind == ResourceKind.WORKLOAD_POD_GROUP
                    ? "metadata.annotations." + SchedulingApi.QUEUE_NAME_ANNOTATION
                    : "spec.queue";
            problems.add(converted.object().warning(field, message + "; the job stays pending"));
            // named with its field, as the converters' errors are: the text goes on the object as an event
            job = job.withProblem(field + ": " + message);
        }
        if (job.minMember() > tasks.size() && !live) {
            // the gang plugin keeps such a job pending and says why; this only tells the reader of files early
            // (in a cluster, controllers create the PodGroup before its pods)
            String field = kind == ResourceKind.WORKLOAD_POD_GROUP ? WorkloadPodGroupConverter.POLICY : "spec.minMember";
            problems.add(converted.object().warning(field,
                    "minMember " + job.minMember() + " is more than its " + tasks.size() + " pods"));
        }
        return job;
    }

    /** The PodGroup Volcano's podgroup controller creates for a pod that names none. */
    private static Job automaticJob(ConvertedPod pod, PriorityClasses priorityClasses) {
        Task task = pod.task();
        return new Job(task.job(), task.job().toString(), pod.queue(), 1, ImmutableMap.of(), Optional.of(task.request()),
                priorityClasses.jobPriority(task.priorityClassName()), task.priorityClassName(), PodGroupPhase.PENDING,
                task.created(), Optional.empty(), ImmutableMap.of(), ImmutableList.of(), ImmutableList.of());
    }

    private static Job withPhase(Job job, PodGroupPhase phase) {
        return new Job(job.id(), job.uid(), job.queue(), job.minMember(), job.minTaskMember(), job.minResources(),
                job.priority(), job.priorityClassName(), phase, job.created(), job.networkTopology(), job.annotations(),
                job.tasks(), job.problems(), job.subGroupPolicies());
    }
}
