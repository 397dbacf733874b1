package dev.muster.sim.policy;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import java.time.Instant;

/**
 * Pending pods of one job that the baseline's queue cannot tell apart except by id: the same
 * priority, queue timestamp, creation time and request (the same {@link Resources} instance, so
 * the same vector). The pods of a gang usually form one group.
 *
 * @param tasks the pods, sorted by id, the queue's last tie-breaker
 */
record PendingGroup(int priority, long queuedAt, Instant created, Resources request, ImmutableList<Task> tasks) {
    PendingGroup {
        requireNonNull(created, "created is null");
        requireNonNull(request, "request is null");
        tasks = ImmutableList.copyOf(tasks);
    }

    PendingGroup withQueuedAt(long millis) {
        return new PendingGroup(priority, millis, created, request, tasks);
    }

    boolean sameKey(Task task, long taskQueuedAt) {
        return task.priority() == priority && taskQueuedAt == queuedAt && task.created().equals(created) && task.request() == request;
    }
}
