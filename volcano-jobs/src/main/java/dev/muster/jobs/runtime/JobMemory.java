package dev.muster.jobs.runtime;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.jobs.controller.DelayedRequest;
import dev.muster.jobs.controller.JobRequest;
import dev.muster.jobs.controller.ObservedPod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the Job controller remembers of one job (by uid) between requests, because the informers
 * lag behind its own writes: the status it last wrote (only the controller writes a Job's status, so
 * that is the truth), pods it created that the informer has not shown yet, pods it deleted that the
 * informer still shows, plugin objects as last applied, delayed policy actions not yet due, and
 * whether a periodic resync asked to look for the plugin objects.
 * Volcano's controller keeps the same in its job cache.
 */
@ThreadSafe
final class JobMemory {
    /** A pod the controller created, by name: its uid and how it looked when created. */
    record CreatedPod(String uid, ObservedPod pod) {}

    /** A delayed action and the timer that will bring it back. */
    record Pending(DelayedRequest delayed, Future<?> timer) {}

    private volatile Optional<ObjectNode> status = Optional.empty();
    private final Map<String, CreatedPod> created = new ConcurrentHashMap<>();
    private final Set<String> deletedPodUids = ConcurrentHashMap.newKeySet();
    private final Map<String, String> applied = new ConcurrentHashMap<>();
    private final List<Pending> delayed = new ArrayList<>();
    private final AtomicBoolean checkObjects = new AtomicBoolean();

    Optional<ObjectNode> status() {
        return status.map(ObjectNode::deepCopy);
    }

    void statusWritten(ObjectNode written) {
        status = Optional.of(written.deepCopy());
    }

    Map<String, CreatedPod> created() {
        return created;
    }

    void podCreated(String name, String uid, ObservedPod pod) {
        created.put(name, new CreatedPod(uid, pod));
    }

    void podDeleted(String uid) {
        deletedPodUids.add(uid);
    }

    boolean deletedByUs(String uid) {
        return deletedPodUids.contains(uid);
    }

    /** The informer saw the pod go: it needs no remembering any more. */
    void podGone(String name, String uid) {
        deletedPodUids.remove(uid);
        created.computeIfPresent(name, (key, pod) -> pod.uid().equals(uid) ? null : pod);
    }

    /** Whether the object, as JSON, is what was last applied under this key ({@code Kind/name}). */
    boolean alreadyApplied(String key, String json) {
        return json.equals(applied.get(key));
    }

    void applied(String key, String json) {
        applied.put(key, json);
    }

    void unapplied(String key) {
        applied.remove(key);
    }

    /** The next request is to look for the plugin objects (a periodic resync). */
    void checkObjectsNext() {
        checkObjects.set(true);
    }

    /** Whether this request is to look for the plugin objects; asks once. */
    boolean takeObjectCheck() {
        return checkObjects.getAndSet(false);
    }

    synchronized void delay(DelayedRequest request, Future<?> timer) {
        delayed.add(new Pending(request, timer));
    }

    /** Cancels the delayed actions {@code request} makes moot, and forgets the one it is (a delayed action falling due). */
    synchronized void onRequest(JobRequest request) {
        delayed.removeIf(pending -> {
            if (pending.delayed().request().equals(request)) {
                return true;
            }
            if (pending.delayed().isCancelledBy(request)) {
                pending.timer().cancel(false);
                return true;
            }
            return false;
        });
    }

    /** The job is gone: nothing it delayed may come back. */
    synchronized void forget() {
        delayed.forEach(pending -> pending.timer().cancel(false));
        delayed.clear();
    }
}
