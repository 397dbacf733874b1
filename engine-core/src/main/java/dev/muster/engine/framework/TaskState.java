package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import java.util.Optional;

/**
 * A task during one session: the pod as read, plus the status and node the session's actions have
 * given it so far. Not thread-safe; it lives and dies with its {@link Session}.
 */
public final class TaskState {
    private final Task task;
    private final JobState job;
    private TaskStatus status;
    private Optional<NodeName> node;
    private Optional<String> jobAllocatedHyperNode = Optional.empty();

    TaskState(Task task, JobState job) {
        this.task = requireNonNull(task, "task is null");
        this.job = requireNonNull(job, "job is null");
        this.status = task.status();
        this.node = task.node();
    }

    public Task task() {
        return task;
    }

    public TaskId id() {
        return task.id();
    }

    public JobState job() {
        return job;
    }

    public TaskStatus status() {
        return status;
    }

    public Optional<NodeName> node() {
        return node;
    }

    public Resources request() {
        return task.request();
    }

    public Resources initRequest() {
        return task.initRequest();
    }

    public boolean bestEffort() {
        return task.bestEffort();
    }

    /**
     * The hypernode the task's subgroup had been placed in when the task was scored (Volcano's
     * {@code TaskInfo.JobAllocatedHyperNode}); topology-aware scorers prefer nodes close to it.
     */
    public Optional<String> jobAllocatedHyperNode() {
        return jobAllocatedHyperNode;
    }

    public void setJobAllocatedHyperNode(Optional<String> hyperNode) {
        this.jobAllocatedHyperNode = requireNonNull(hyperNode, "hyperNode is null");
    }

    void setStatus(TaskStatus status) {
        this.status = requireNonNull(status, "status is null");
    }

    void setNode(Optional<NodeName> node) {
        this.node = requireNonNull(node, "node is null");
    }

    @Override
    public String toString() {
        return task.id() + "(" + status + node.map(name -> "@" + name).orElse("") + ")";
    }
}
