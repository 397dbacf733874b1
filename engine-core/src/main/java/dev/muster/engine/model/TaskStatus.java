package dev.muster.engine.model;

import java.util.EnumSet;
import java.util.Set;

/** Where a task (pod) stands, as the scheduler sees it; Volcano's task statuses. */
public enum TaskStatus {
    PENDING,
    ALLOCATED,
    PIPELINED,
    BINDING,
    BOUND,
    RUNNING,
    RELEASING,
    SUCCEEDED,
    FAILED,
    UNKNOWN;

    private static final Set<TaskStatus> ALLOCATED_STATUSES = EnumSet.of(ALLOCATED, BINDING, BOUND, RUNNING);
    private static final Set<TaskStatus> PREEMPTABLE_STATUSES = EnumSet.of(BOUND, RUNNING);
    private static final Set<TaskStatus> SCHEDULED_STATUSES = EnumSet.of(RUNNING, BOUND, SUCCEEDED, FAILED);

    /** Holds node resources on behalf of its job: Allocated, Binding, Bound or Running. */
    public boolean isAllocated() {
        return ALLOCATED_STATUSES.contains(this);
    }

    /** May be evicted: Bound or Running. */
    public boolean isPreemptable() {
        return PREEMPTABLE_STATUSES.contains(this);
    }

    /** Has been placed by a previous cycle: Running, Bound, Succeeded or Failed. */
    public boolean isScheduled() {
        return SCHEDULED_STATUSES.contains(this);
    }

    public boolean isTerminated() {
        return this == SUCCEEDED || this == FAILED;
    }
}
