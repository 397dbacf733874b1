package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.cache.StoredObject;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.framework.SessionResult.JobOutcome;
import dev.muster.engine.model.JobId;
import dev.muster.runtime.binding.EventRecorder.Subject;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Posts a Warning Event, reason {@value #IGNORED_HINT}, on a PodGroup for each hint a plugin ignored
 * (a malformed {@code muster.dev/duration-estimate}, say): once while it lasts, as {@link ValidationEvents}
 * does for invalid objects, so a hint that stays malformed is one event, not one per cycle. An event that
 * could not be posted is tried again next cycle.
 *
 * <p>Not thread-safe, but for the completions of posts: the scheduling thread calls it once per cycle.
 */
final class HintWarnings {
    static final String IGNORED_HINT = "IgnoredHint";

    private final EventRecorder events;
    private final Set<Reported> reported = ConcurrentHashMap.newKeySet();

    HintWarnings(EventRecorder events) {
        this.events = requireNonNull(events, "events is null");
    }

    /** Posts the warnings not posted yet and forgets those that are gone; returns how many it posted. */
    int report(Map<JobId, StoredObject> podGroups, SessionResult result) {
        Set<Reported> current = new HashSet<>();
        int posted = 0;
        for (Map.Entry<JobId, JobOutcome> entry : result.jobs().entrySet()) {
            StoredObject podGroup = podGroups.get(entry.getKey());
            if (podGroup == null || entry.getValue().warnings().isEmpty()) {
                continue;
            }
            Subject subject = new Subject(podGroup.apiVersion(), "PodGroup", entry.getKey().namespace(), entry.getKey().name(),
                    podGroup.uid());
            for (String warning : entry.getValue().warnings()) {
                Reported key = new Reported(subject, warning);
                current.add(key);
                if (reported.add(key)) {
                    posted++;
                    events.record(subject, true, IGNORED_HINT, warning).whenComplete((done, failure) -> {
                        if (failure != null || !Boolean.TRUE.equals(done)) {
                            reported.remove(key);
                        }
                    });
                }
            }
        }
        reported.retainAll(current);
        return posted;
    }

    private record Reported(Subject subject, String warning) {}
}
