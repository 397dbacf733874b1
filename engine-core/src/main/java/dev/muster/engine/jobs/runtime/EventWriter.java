package dev.muster.engine.jobs.runtime;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.engine.jobs.controller.PlanEvent;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a controller's events as {@code v1} Events on the object, as {@code kubectl describe}
 * shows them. Best effort: an event that cannot be posted is logged and dropped; the status it goes
 * with is the record.
 */
@ThreadSafe
final class EventWriter {
    static final String COMPONENT = "muster-job-controller";
    private static final Logger log = LoggerFactory.getLogger(EventWriter.class);

    private final KubernetesClient client;
    private final Clock clock;
    private final AtomicLong sequence = new AtomicLong();

    EventWriter(KubernetesClient client, Clock clock) {
        this.client = requireNonNull(client, "client is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** What the event is about. */
    record Subject(String apiVersion, String kind, String namespace, String name, String uid) {
        Subject {
            requireNonNull(apiVersion, "apiVersion is null");
            requireNonNull(kind, "kind is null");
            requireNonNull(namespace, "namespace is null");
            requireNonNull(name, "name is null");
            requireNonNull(uid, "uid is null");
        }
    }

    void record(Subject subject, PlanEvent planEvent) {
        Instant now = clock.instant();
        String time = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
        Event event = new EventBuilder()
                .withNewMetadata()
                .withNamespace(subject.namespace())
                .withName(String.format(Locale.ROOT, "%s.%x%04x", subject.name(), now.toEpochMilli(), sequence.incrementAndGet() & 0xffff))
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion(subject.apiVersion())
                .withKind(subject.kind())
                .withNamespace(subject.namespace())
                .withName(subject.name())
                .withUid(subject.uid().isEmpty() ? null : subject.uid())
                .endInvolvedObject()
                .withType(planEvent.type())
                .withReason(planEvent.reason())
                .withMessage(planEvent.message())
                .withFirstTimestamp(time)
                .withLastTimestamp(time)
                .withCount(1)
                .withReportingComponent(COMPONENT)
                .withNewSource().withComponent(COMPONENT).endSource()
                .build();
        try {
            client.v1().events().inNamespace(subject.namespace()).resource(event).create();
        } catch (KubernetesClientException e) {
            log.warn("event not recorded {}={}/{} reason={}: {}", subject.kind(), subject.namespace(), subject.name(), planEvent.reason(),
                    e.getMessage());
        }
    }
}
