package dev.muster.engine.framework;


/**
 * Told of every allocate, pipeline and evict, and of their undoing, so a plugin's shares stay right.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface AllocationListener {
    /** A task now holds (or again holds) resources: allocated, pipelined, or un-evicted. */
    void allocated(TaskState task);

    /** A task gave resources back: evicted, or its allocation or pipelining was undone. */
    void deallocated(TaskState task);
}
