package dev.muster.jobs.controller;

import com.google.common.collect.ImmutableSortedMap;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds the PodGroup of a Volcano Job (Volcano's {@code createOrUpdatePodGroup} and {@code calcPGMinResources}). */
public final class PodGroupFactory {
    private PodGroupFactory() {}

    /** {@code <job>-<uid>}, Volcano's current naming. */
    public static String podGroupName(VolcanoJob job) {
        return job.name() + "-" + job.metadata().uid();
    }

    public static PodGroupManifest create(VolcanoJob job, PriorityClassLookup priorities) {
        ImmutableSortedMap.Builder<String, Integer> minTaskMember = ImmutableSortedMap.naturalOrder();
        job.spec().tasks().forEach(task -> minTaskMember.put(task.name(), task.minMember()));
        return new PodGroupManifest(job.namespace(), podGroupName(job), Owners.controllerOf(job), job.metadata().labels(),
                job.metadata().annotations(), job.spec().minAvailable(), minTaskMember.buildOrThrow(), job.spec().queue(),
                job.spec().priorityClassName(), minResources(job, priorities));
    }

    /**
     * The requests of the first minAvailable pods, tasks by descending template priority (stable, so
     * ties keep the manifest order): each task's own minimum first, then its other replicas while the
     * job's minimum is not reached. When the job's minimum is below the tasks' minimums together, the
     * first pods in that order, whatever their task's minimum.
     */
    public static ImmutableSortedMap<String, BigDecimal> minResources(VolcanoJob job, PriorityClassLookup priorities) {
        List<TaskSpec> tasks = new ArrayList<>(job.spec().tasks());
        tasks.sort(Comparator.comparingInt((TaskSpec task) -> priority(task, priorities)).reversed());
        int jobMinimum = job.spec().minAvailable();
        Map<String, BigDecimal> total = new TreeMap<>();
        if (jobMinimum < job.spec().totalTaskMinAvailable()) {
            int left = jobMinimum;
            for (TaskSpec task : tasks) {
                int count = Math.min(left, task.replicas());
                add(total, task, count);
                left -= count;
                if (left <= 0) {
                    break;
                }
            }
            return ImmutableSortedMap.copyOf(total);
        }
        int counted = 0;
        for (TaskSpec task : tasks) {
            int count = Math.min(task.minMember(), jobMinimum - counted);
            add(total, task, count);
            counted += count;
            if (counted >= jobMinimum) {
                return ImmutableSortedMap.copyOf(total);
            }
        }
        int left = jobMinimum - counted;
        for (TaskSpec task : tasks) {
            int count = Math.min(left, task.replicas() - task.minMember());
            add(total, task, count);
            left -= count;
            if (left <= 0) {
                break;
            }
        }
        return ImmutableSortedMap.copyOf(total);
    }

    private static int priority(TaskSpec task, PriorityClassLookup priorities) {
        PodSpec spec = task.template().getSpec();
        if (spec == null || spec.getPriorityClassName() == null || spec.getPriorityClassName().isEmpty()) {
            return 0;
        }
        return priorities.value(spec.getPriorityClassName()).orElse(0);
    }

    private static void add(Map<String, BigDecimal> total, TaskSpec task, int count) {
        if (count <= 0) {
            return;
        }
        podRequests(task.template().getSpec()).forEach((resource, amount) ->
                total.merge(resource, amount.multiply(BigDecimal.valueOf(count)), BigDecimal::add));
    }

    /** A pod's requests: the containers' sum, or the largest init container's when larger, per resource. */
    static Map<String, BigDecimal> podRequests(PodSpec spec) {
        Map<String, BigDecimal> sum = new TreeMap<>();
        if (spec == null) {
            return sum;
        }
        for (Container container : spec.getContainers()) {
            requests(container).forEach((resource, amount) -> sum.merge(resource, amount, BigDecimal::add));
        }
        for (Container init : spec.getInitContainers()) {
            requests(init).forEach((resource, amount) -> sum.merge(resource, amount, BigDecimal::max));
        }
        return sum;
    }

    /** Requests, falling back to limits as the API server's defaulting does. */
    private static Map<String, BigDecimal> requests(Container container) {
        Map<String, BigDecimal> amounts = new TreeMap<>();
        if (container.getResources() == null) {
            return amounts;
        }
        Map<String, Quantity> limits = container.getResources().getLimits();
        Map<String, Quantity> requests = container.getResources().getRequests();
        if (limits != null) {
            limits.forEach((resource, quantity) -> amounts.put(resource, quantity.getNumericalAmount()));
        }
        if (requests != null) {
            requests.forEach((resource, quantity) -> amounts.put(resource, quantity.getNumericalAmount()));
        }
        return amounts;
    }
}
