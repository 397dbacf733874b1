package dev.muster.runtime.controller;

/**
 * Something that reconciles objects of the API server while this replica leads: Volcano's job
 * controllers, a bridge's controllers. Contributed to the runtime with {@link ControllerBinder}; the
 * runtime starts every contributed controller when this replica starts leading (at once, without
 * leader election) and stops it when the replica loses its lease or shuts down. A controller speaks
 * to the scheduler only through the API server, in Volcano's vocabulary: PodGroups, the group
 * annotation on pods, the {@code dag} plugin's annotations.
 *
 * <p>Both methods are called on the runtime's leadership thread, never at the same time, and in the
 * order start, stop, start, stop... as terms come and go. An implementation is a Guice singleton
 * that keeps nothing of one term for the next: whatever it starts (informers, work queues, threads)
 * it makes in {@link #start()} and ends in {@link #stop()}. Its reconciliation must be idempotent,
 * since a new term (here or on another replica) sees every object again.
 */
public interface Controller {
    /** A short name for logs, unique among the controllers of a process, e.g. {@code volcano-jobs}. */
    String name();

    /**
     * Starts reconciling, once per leader term. May block until the controller's informers have
     * listed their kinds once. Must not be called again before {@link #stop()}; an exception stops
     * the controllers started so far in this term and is logged with the controller's name.
     *
     * @throws InterruptedException when the wait for the informers is interrupted; the flag is the
     *     caller's to keep
     */
    void start() throws InterruptedException;

    /**
     * Stops reconciling: no write after it returns. Idempotent, called also when {@link #start()}
     * failed or never ran; must not throw, and keeps an interrupt set.
     */
    void stop();
}
