package dev.muster.engine.plugins.placeable;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The pods a job still needs placed before its gang can start, largest first: its pending pods with
 * requests, as many as {@code minMember} minus what already runs. A job whose pods do not exist yet
 * (Volcano's job controller creates them only once the PodGroup is admitted) is taken as
 * {@code minMember} equal pods sharing {@code minResources}. A value, so equal shapes share one answer.
 *
 * @param pods the requests, largest GPU then cpu first
 */
record GangShape(ImmutableList<Resources> pods) {
    private static final Comparator<Resources> LARGEST_FIRST = Comparator.comparingDouble((Resources r) -> r.get(Resources.GPU))
            .thenComparingDouble(Resources::milliCpu)
            .thenComparingDouble(Resources::memory)
            .reversed();

    GangShape {
        requireNonNull(pods, "pods is null");
    }

    static GangShape of(JobState job) {
        int placed = 0;
        for (TaskState task : job.tasks()) {
            if (task.status().isAllocated()) {
                placed++;
            }
        }
        int needed = Math.max(0, job.minMember() - placed);
        List<Resources> pending = new ArrayList<>();
        for (TaskState task : job.tasksWithStatus(TaskStatus.PENDING)) {
            if (!task.bestEffort() && !task.task().gated()) {
                pending.add(task.initRequest().max(task.request()));
            }
        }
        if (pending.isEmpty() && job.job().minResources().isPresent() && job.minMember() > 0 && job.tasks().isEmpty()) {
            Resources each = job.job().minResources().get().multiply(1.0 / job.minMember());
            return new GangShape(ImmutableList.copyOf(Collections.nCopies(job.minMember(), each)));
        }
        pending.sort(LARGEST_FIRST);
        return new GangShape(ImmutableList.copyOf(pending.subList(0, Math.min(needed, pending.size()))));
    }

    Resources total() {
        Resources total = Resources.EMPTY;
        for (Resources pod : pods) {
            total = total.add(pod);
        }
        return total;
    }

    int size() {
        return pods.size();
    }

    Resources pod(int index) {
        checkArgument(index >= 0 && index < pods.size(), "no pod %s in a gang of %s", index, pods.size());
        return pods.get(index);
    }
}
