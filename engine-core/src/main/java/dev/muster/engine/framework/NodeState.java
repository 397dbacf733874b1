package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A node during one session, with Volcano's accounting: {@code idle} is allocatable minus what
 * placed tasks use, {@code releasing} is held by tasks being evicted, {@code pipelined} is reserved
 * for tasks that wait for releasing resources. Not thread-safe.
 *
 * <p>Every change to the node's tasks or resources moves its {@link #version()} on, so per-session
 * caches (node scores) can tell a stale entry from a current one.
 */
public final class NodeState {
    private final ClusterNode node;
    private final int index;
    private final Map<TaskId, TaskState> tasks = new LinkedHashMap<>();
    private Resources idle;
    private Resources used = Resources.EMPTY;
    private Resources releasing = Resources.EMPTY;
    private Resources pipelined = Resources.EMPTY;
    private int otherTaskCount;
    private int otherReleasingCount;
    private int evictedThisSession;
    private Resources futureIdle;
    private int version;

    NodeState(ClusterNode node, int index) {
        this.node = requireNonNull(node, "node is null");
        this.index = index;
        this.idle = node.allocatable();
    }

    public ClusterNode node() {
        return node;
    }

    public NodeName name() {
        return node.name();
    }

    /** The node's position in {@link Session#nodes()}: a dense index for per-node arrays. */
    public int index() {
        return index;
    }

    /** Changes whenever a task is added to, removed from or changes status on the node. */
    public int version() {
        return version;
    }

    public Resources allocatable() {
        return node.allocatable();
    }

    public Resources idle() {
        return idle;
    }

    public Resources used() {
        return used;
    }

    public Resources releasing() {
        return releasing;
    }

    public Resources pipelined() {
        return pipelined;
    }

    /** What will be free once releasing tasks are gone and pipelined ones arrive. */
    public Resources futureIdle() {
        if (futureIdle == null) {
            futureIdle = idle.add(releasing).subtract(pipelined);
        }
        return futureIdle;
    }

    /** Every task on the node, including pipelined ones and pods of other schedulers. */
    public Collection<TaskState> tasks() {
        return Collections.unmodifiableCollection(tasks.values());
    }

    /**
     * The pods kube-scheduler's filters see on the node: tasks of this scheduler's jobs (pipelined ones
     * included) plus pods of others, less the tasks this session evicted, whose pods the filters no
     * longer count (as Volcano's predicates plugin forgets a pod when its task is evicted).
     */
    public int taskCount() {
        return tasks.size() + otherTaskCount - evictedThisSession;
    }

    /**
     * How many more pods the node will take once releasing pods are gone, counting pipelined tasks as
     * there: Volcano's {@code pods} dimension of the future idle, which every task requests one of.
     */
    public int futureIdlePods() {
        int held = otherTaskCount - otherReleasingCount;
        for (TaskState task : tasks.values()) {
            if (task.status() != TaskStatus.RELEASING) {
                held++;
            }
        }
        return node.maxPods() - held;
    }

    /** Counts a pod that is not ours (another scheduler's, a daemon) against the node. */
    void addOtherTask(Task task) {
        if (task.status().isTerminated()) {
            return;
        }
        changed();
        idle = idle.subtract(task.request());
        used = used.add(task.request());
        if (task.status() == TaskStatus.RELEASING) {
            releasing = releasing.add(task.request());
            otherReleasingCount++;
        }
        otherTaskCount++;
    }

    void addTask(TaskState task) {
        changed();
        switch (task.status()) {
            case RELEASING -> {
                idle = idle.subtract(task.request());
                releasing = releasing.add(task.request());
                used = used.add(task.request());
            }
            case PIPELINED -> pipelined = pipelined.add(task.request());
            default -> {
                idle = idle.subtract(task.request());
                used = used.add(task.request());
            }
        }
        tasks.put(task.id(), task);
    }

    void removeTask(TaskState task) {
        if (tasks.remove(task.id()) == null) {
            return;
        }
        removeResources(task.status(), task);
    }

    /** Moves a task on this node from one status to another (evict and its undo). */
    void updateTask(TaskState task, TaskStatus previous) {
        if (previous != TaskStatus.RELEASING && task.status() == TaskStatus.RELEASING) {
            evictedThisSession++;
        } else if (previous == TaskStatus.RELEASING && task.status() != TaskStatus.RELEASING) {
            evictedThisSession--;
        }
        removeResources(previous, task);
        tasks.remove(task.id());
        addTask(task);
    }

    private void removeResources(TaskStatus status, TaskState task) {
        changed();
        switch (status) {
            case RELEASING -> {
                releasing = releasing.subtract(task.request());
                idle = idle.add(task.request());
                used = used.subtract(task.request());
            }
            case PIPELINED -> pipelined = pipelined.subtract(task.request());
            default -> {
                idle = idle.add(task.request());
                used = used.subtract(task.request());
            }
        }
    }

    private void changed() {
        futureIdle = null;
        version++;
    }

    @Override
    public String toString() {
        return node.name().toString();
    }
}
