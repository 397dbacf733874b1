package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.cache.InvalidObject;
import dev.muster.runtime.binding.EventRecorder.Subject;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Posts a Warning Event, reason {@value #INVALID_SPEC}, on each object that fails validation, one per
 * problem, with the text {@code what-if} prints ({@code field: what is wrong with the bad value}). A
 * problem is posted once while it lasts: not again next cycle, but again if it goes away and comes
 * back, or if the object is recreated (a new uid). An event that could not be posted is tried again next
 * cycle. What was posted is remembered in memory only, so a restarted or newly elected scheduler posts
 * each lasting problem once more. An invalid pod also gets {@code PodScheduled=False} ({@link InvalidPodCondition}),
 * written when its problems change.
 *
 * <p>Not thread-safe, but for the completions of posts: the scheduling thread calls it once per cycle.
 */
final class ValidationEvents {
    static final String INVALID_SPEC = PodGroupStatus.INVALID_SPEC;

    private final EventRecorder events;
    private final InvalidPodCondition podCondition;
    /** Problems posted or being posted; a failed post removes its own. */
    private final Set<Reported> reported = ConcurrentHashMap.newKeySet();
    /** The PodScheduled message written or being written, by pod; a failed write removes its own. */
    private final Map<Subject, String> podConditions = new ConcurrentHashMap<>();

    ValidationEvents(EventRecorder events, InvalidPodCondition podCondition) {
        this.events = requireNonNull(events, "events is null");
        this.podCondition = requireNonNull(podCondition, "podCondition is null");
    }

    /** Posts the problems not posted yet and forgets those that are gone; returns how many it posted. */
    int report(List<InvalidObject> invalid) {
        Set<Reported> current = new HashSet<>();
        int posted = 0;
        for (InvalidObject object : invalid) {
            Subject subject = new Subject(object.apiVersion(), object.kind(), object.namespace(), object.name(), object.uid());
            for (String problem : object.problems()) {
                Reported key = new Reported(subject, problem);
                current.add(key);
                if (reported.add(key)) {
                    posted++;
                    events.record(subject, true, INVALID_SPEC, problem).whenComplete((done, failure) -> {
                        if (failure != null || !Boolean.TRUE.equals(done)) {
                            reported.remove(key);
                        }
                    });
                }
            }
            if (object.apiVersion().equals("v1") && object.kind().equals("Pod")) {
                String message = String.join("; ", object.problems());
                if (!message.equals(podConditions.put(subject, message))) {
                    podCondition.write(object.namespace(), object.name(), message).whenComplete((done, failure) -> {
                        if (failure != null || !Boolean.TRUE.equals(done)) {
                            podConditions.remove(subject, message);
                        }
                    });
                }
            }
        }
        reported.retainAll(current);
        podConditions.keySet().retainAll(current.stream().map(Reported::subject).toList());
        return posted;
    }

    private record Reported(Subject subject, String problem) {}
}
