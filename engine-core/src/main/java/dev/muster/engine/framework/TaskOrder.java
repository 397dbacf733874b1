package dev.muster.engine.framework;


/**
 * Orders the tasks of a job. The first non-zero answer wins, then the pod's index suffix, creation time and uid.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface TaskOrder {
    /** Negative when {@code left} should be placed first, 0 for no opinion. */
    int compareTasks(TaskState left, TaskState right);
}
