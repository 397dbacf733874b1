package dev.muster.jobs.runtime;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.jobs.controller.PlanEvent;
import dev.muster.runtime.binding.EventRecorder.Subject;
import dev.muster.runtime.binding.EventRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a controller's plan events through the scheduler's {@link EventRecorder}, waiting for each.
 * Best effort: an event that cannot be posted is logged and dropped; the status it goes with is the
 * record.
 */
@ThreadSafe
final class EventWriter {
    static final String COMPONENT = "muster-job-controller";
    private static final Logger log = LoggerFactory.getLogger(EventWriter.class);

    private final EventRecorder recorder;

    EventWriter(EventRecorder recorder) {
        this.recorder = requireNonNull(recorder, "recorder is null");
    }

    void record(Subject subject, PlanEvent planEvent) {
        boolean posted = recorder.record(subject, planEvent.warning(), planEvent.reason(), planEvent.message()).join();
        if (!posted) {
            log.warn("event not recorded {}={}/{} reason={}", subject.kind(), subject.namespace(), subject.name(), planEvent.reason());
        }
    }
}
