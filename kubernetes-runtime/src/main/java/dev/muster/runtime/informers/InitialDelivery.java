package dev.muster.runtime.informers;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * Tells when an informer's event handler has been given every object of the informer's first list.
 * fabric8 completes an informer's start once the list is in the informer's own store and the watch is
 * open, but hands the listed objects to event handlers later, one by one, on another thread; with ten
 * thousand pods the pods' handler is still busy long after the PodGroups' has finished. The handler
 * reports each object it has passed on; {@link #await} waits for the keys the store held after the list.
 * Once that wait is over nothing more is tracked.
 */
@ThreadSafe
final class InitialDelivery {
    @GuardedBy("this")
    private final Set<String> seen = new HashSet<>();

    @GuardedBy("this")
    private Set<String> remaining;

    @GuardedBy("this")
    private boolean done;

    /** The handler has passed on the object with this store key ({@code namespace/name} or {@code name}). */
    synchronized void delivered(String key) {
        if (done) {
            return;
        }
        if (remaining == null) {
            seen.add(key);
        } else if (remaining.remove(key) && remaining.isEmpty()) {
            notifyAll();
        }
    }

    /**
     * Waits until every key has been delivered, telling {@code stillWaiting} how many are left every
     * {@code every}. A key listed and then deleted was still delivered first, as an add, so this ends.
     */
    synchronized void await(Collection<String> keys, Duration every, IntConsumer stillWaiting) throws InterruptedException {
        requireNonNull(keys, "keys is null");
        requireNonNull(stillWaiting, "stillWaiting is null");
        remaining = new HashSet<>(keys);
        remaining.removeAll(seen);
        seen.clear();
        while (!remaining.isEmpty()) {
            wait(every.toMillis());
            if (!remaining.isEmpty()) {
                stillWaiting.accept(remaining.size());
            }
        }
        remaining = null;
        done = true;
    }
}
