package dev.muster.engine.queue;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One queue's quota accounting for a session: what it deserves, may use at most, holds and has
 * admitted. Built when a queue plugin opens and kept current by its allocation events.
 *
 * <p>Not thread-safe: it lives and dies with the session's plugin.
 */
public final class QueueAttributes {
    private final Queue queue;
    private Resources guarantee;
    private Resources capability;
    private Resources realCapability;
    private Resources deserved;
    private Resources allocated = Resources.EMPTY;
    private Resources request = Resources.EMPTY;
    private Resources inqueue = Resources.EMPTY;
    private Resources elastic = Resources.EMPTY;
    private double share;

    public QueueAttributes(Queue queue, Resources capability, Resources realCapability, Resources deserved) {
        this.queue = requireNonNull(queue, "queue is null");
        this.guarantee = queue.guarantee();
        this.capability = requireNonNull(capability, "capability is null");
        this.realCapability = requireNonNull(realCapability, "realCapability is null");
        this.deserved = requireNonNull(deserved, "deserved is null");
    }

    /**
     * The queue's capability with an unset (0) cpu or memory meaning unlimited, as Volcano reads
     * {@code spec.capability}; empty when the queue sets none.
     */
    public static Optional<Resources> capability(Queue queue) {
        return queue.capability().map(capability -> new Resources(
                capability.milliCpu() <= 0 ? Double.MAX_VALUE : capability.milliCpu(),
                capability.memory() <= 0 ? Double.MAX_VALUE : capability.memory(),
                capability.scalars()));
    }

    /**
     * The most a queue can use when every queue takes its guarantee: what the cluster has beyond all
     * guarantees, plus its own, capped by its capability (absent scalars of the capability cap nothing).
     */
    public static Resources realCapability(Resources total, Resources totalGuarantee, Resources guarantee,
            Optional<Resources> capability) {
        Resources real = Quota.exceededPart(total, totalGuarantee).add(guarantee);
        return capability.map(limit -> real.min(limit, Resources.Missing.INFINITY)).orElse(real);
    }

    public Queue queue() {
        return queue;
    }

    public QueueName name() {
        return queue.name();
    }

    public boolean isOpen() {
        return queue.state() == QueueState.OPEN;
    }

    public Resources guarantee() {
        return guarantee;
    }

    /** Replaces the guarantee; a hierarchy's root guarantees what its children do. */
    public void setGuarantee(Resources guarantee) {
        this.guarantee = requireNonNull(guarantee, "guarantee is null");
    }

    public Resources capability() {
        return capability;
    }

    public void setCapability(Resources capability) {
        this.capability = requireNonNull(capability, "capability is null");
    }

    public Resources realCapability() {
        return realCapability;
    }

    public void setRealCapability(Resources realCapability) {
        this.realCapability = requireNonNull(realCapability, "realCapability is null");
    }

    public Resources deserved() {
        return deserved;
    }

    public void setDeserved(Resources deserved) {
        this.deserved = requireNonNull(deserved, "deserved is null");
    }

    public Resources allocated() {
        return allocated;
    }

    public Resources request() {
        return request;
    }

    public Resources inqueue() {
        return inqueue;
    }

    public Resources elastic() {
        return elastic;
    }

    /** The share as last computed by {@link #setShare}. */
    public double share() {
        return share;
    }

    public void setShare(double share) {
        this.share = share;
    }

    /** Adds a job's usage as the session opens. */
    public void add(JobUsage usage) {
        allocated = allocated.add(usage.allocated());
        request = request.add(usage.request());
        inqueue = inqueue.add(usage.inqueue());
        elastic = elastic.add(usage.elastic());
    }

    public void addAllocated(Resources resources) {
        allocated = allocated.add(resources);
    }

    public void subtractAllocated(Resources resources) {
        allocated = allocated.subtract(resources);
    }

    /** Counts an admitted job's minimum resources until its tasks are allocated. */
    public void addInqueue(Resources resources) {
        inqueue = inqueue.add(resources);
    }

    /**
     * The dimensions on which admitting a job with these minimum resources would take the queue past
     * its real capability: {@code minimum + allocated + inqueue - elastic ≤ realCapability}, on the
     * dimensions the minimum asks for. Empty when it fits.
     */
    public TreeSet<String> admissionShortfall(Resources minimum) {
        return Quota.insufficientOnRequested(withAdmitted(minimum), realCapability, minimum);
    }

    /** What admission counts the queue at once a job of this minimum is admitted: {@code minimum + allocated + inqueue - elastic}. */
    public Resources withAdmitted(Resources minimum) {
        return minimum.add(allocated).add(inqueue).subtract(elastic);
    }

    /**
     * The resources on which admitting {@code minimum} would take the queue over its deserved share,
     * counting what it runs and has admitted; empty when it fits.
     */
    public TreeSet<String> deservedShortfall(Resources minimum) {
        return Quota.insufficientOnRequested(withAdmitted(minimum), deserved, minimum);
    }

    @Override
    public String toString() {
        return String.format("queue %s: deserved <%s>, real capability <%s>, allocated <%s>, inqueue <%s>, share %.3f",
                queue.name(), deserved, realCapability, allocated, inqueue, share);
    }
}
