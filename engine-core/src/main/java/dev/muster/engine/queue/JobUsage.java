package dev.muster.engine.queue;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskStatus;
import java.util.TreeMap;

/**
 * What one job adds to its queue's accounting when a session opens, with Volcano's rules.
 *
 * @param allocated the requests of its tasks that hold resources
 * @param request {@code allocated} plus the requests of its pending tasks
 * @param inqueue what an admitted job has reserved but not yet allocated: {@code minResources} minus
 *     allocated, floored at 0, for an Inqueue PodGroup, and for a Running one whose allocated tasks
 *     still make up its gang; minus the requests of scheduling-gated pods
 * @param elastic what the job holds beyond its {@code minResources}; admission does not count it
 */
public record JobUsage(Resources allocated, Resources request, Resources inqueue, Resources elastic) {
    public JobUsage {
        requireNonNull(allocated, "allocated is null");
        requireNonNull(request, "request is null");
        requireNonNull(inqueue, "inqueue is null");
        requireNonNull(elastic, "elastic is null");
    }

    /** The job's usage as the session opens; reads the PodGroup phase the snapshot had. */
    public static JobUsage of(JobState job) {
        Resources allocated = Resources.EMPTY;
        Resources request = Resources.EMPTY;
        int allocatedCount = 0;
        for (TaskState task : job.tasks()) {
            if (task.status().isAllocated()) {
                allocated = allocated.add(task.request());
                request = request.add(task.request());
                allocatedCount++;
            } else if (task.status() == TaskStatus.PENDING) {
                request = request.add(task.request());
            }
        }
        Job spec = job.job();
        Resources inqueue = Resources.EMPTY;
        if (spec.minResources().isPresent()) {
            boolean admitted = spec.phase() == PodGroupPhase.INQUEUE
                    || (spec.phase() == PodGroupPhase.RUNNING && allocatedCount >= spec.minMember());
            if (admitted) {
                inqueue = withoutGated(job, reserved(spec.minResources().get(), job.allocated()));
            }
        }
        Resources elastic = Quota.exceededPart(job.allocated(), spec.minResources().orElse(Resources.EMPTY));
        return new JobUsage(allocated, request, inqueue, elastic);
    }

    /**
     * This usage with the request raised to the job's {@code minResources} while it waits for admission
     * or for its pods (Pending or Inqueue): a PodGroup whose controller creates the pods only once it is
     * admitted, as Volcano's job controller does, then counts as the demand it is.
     */
    public JobUsage withMinimumRequested(JobState job) {
        Job spec = job.job();
        boolean waiting = spec.phase() == PodGroupPhase.PENDING || spec.phase() == PodGroupPhase.INQUEUE;
        if (!waiting || spec.minResources().isEmpty()) {
            return this;
        }
        return new JobUsage(allocated, request.max(spec.minResources().get()), inqueue, elastic);
    }

    /**
     * {@code minResources} minus what is already allocated, per dimension of minResources, floored at
     * 0 (Volcano's {@code GetInqueueResource}): a scalar the job has no allocation of is reserved whole.
     */
    static Resources reserved(Resources minResources, Resources allocated) {
        TreeMap<String, Double> scalars = new TreeMap<>();
        minResources.scalars().forEach((name, quantity) -> {
            if (!allocated.has(name)) {
                scalars.put(name, quantity);
            } else if (quantity - allocated.get(name) > 0) {
                scalars.put(name, quantity - allocated.get(name));
            }
        });
        return new Resources(
                Math.max(minResources.milliCpu() - allocated.milliCpu(), 0),
                Math.max(minResources.memory() - allocated.memory(), 0),
                ImmutableSortedMap.copyOf(scalars));
    }

    /**
     * The job's minimum resources as admission counts them: minus what its scheduling-gated pods
     * request, floored at 0, so gated pods do not hold queue quota (Volcano's
     * {@code DeductSchGatedResources}).
     */
    public static Resources admittedResources(JobState job) {
        return withoutGated(job, job.job().minResources().orElse(Resources.EMPTY));
    }

    private static Resources withoutGated(JobState job, Resources resources) {
        Resources gated = gatedRequests(job);
        if (Quota.isEmpty(gated)) {
            return resources;
        }
        TreeMap<String, Double> scalars = new TreeMap<>(resources.scalars());
        resources.scalars().forEach((name, quantity) -> {
            if (gated.has(name)) {
                scalars.put(name, Math.max(quantity - gated.get(name), 0));
            }
        });
        return new Resources(
                Math.max(resources.milliCpu() - gated.milliCpu(), 0),
                Math.max(resources.memory() - gated.memory(), 0),
                ImmutableSortedMap.copyOf(scalars));
    }

    private static Resources gatedRequests(JobState job) {
        Resources gated = Resources.EMPTY;
        for (TaskState task : job.tasks()) {
            if (task.task().gated()) {
                gated = gated.add(task.request());
            }
        }
        return gated;
    }
}
