package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.ThreadSafe;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts {@code v1} Events, as {@code kubectl describe} shows them, for the scheduler and the job
 * controllers. Best effort: an event that cannot be posted is logged at debug and dropped; the
 * condition or status it accompanies is the record.
 *
 * <p>A message longer than {@link #MESSAGE_LIMIT} bytes of UTF-8 is cut there and ends in {@code " ..."}:
 * {@code events.k8s.io/v1} refuses a note over 1,024 bytes, and although the core {@code v1} Events this
 * posts have no such check, a reason that lists a large gang's pods one by one would otherwise fill
 * {@code kubectl describe} and etcd; the object's condition keeps the whole text.
 */
@ThreadSafe
public final class EventRecorder {
    static final String COMPONENT = "muster";
    /** The longest message posted, in bytes of UTF-8: events.k8s.io/v1's limit on a note. */
    static final int MESSAGE_LIMIT = 1024;
    private static final String CUT = " ...";
    private static final Logger log = LoggerFactory.getLogger(EventRecorder.class);

    private final RestCalls rest;
    private final Clock clock;
    private final String component;
    private final AtomicLong sequence = new AtomicLong();

    EventRecorder(RestCalls rest, Clock clock) {
        this(rest, clock, COMPONENT);
    }

    private EventRecorder(RestCalls rest, Clock clock, String component) {
        this.rest = requireNonNull(rest, "rest is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.component = requireNonNull(component, "component is null");
    }

    /** Events of {@code component} (their {@code source.component} and {@code reportingComponent}). */
    public static EventRecorder connect(KubernetesClient client, RetryPolicy retry, Clock clock, String component) {
        return new EventRecorder(new RestCalls(requireNonNull(client, "client is null"), requireNonNull(retry, "retry is null")), clock,
                component);
    }

    /** What an event is about. Cluster-scoped objects have an empty namespace; their events go to {@code default}. */
    public record Subject(String apiVersion, String kind, String namespace, String name, String uid) {
        public Subject {
            requireNonNull(apiVersion, "apiVersion is null");
            requireNonNull(kind, "kind is null");
            requireNonNull(namespace, "namespace is null");
            requireNonNull(name, "name is null");
            requireNonNull(uid, "uid is null");
        }
    }

    /** Posts the event without waiting for the answer, which tells whether it was posted. */
    public CompletableFuture<Boolean> record(Subject subject, boolean warning, String reason, String message) {
        Instant now = clock.instant();
        String namespace = subject.namespace().isEmpty() ? "default" : subject.namespace();
        String name = String.format(Locale.ROOT, "%s.%x%04x", subject.name(), now.toEpochMilli(),
                sequence.incrementAndGet() & 0xffff);
        ObjectNode event = JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "Event");
        event.putObject("metadata").put("name", name).put("namespace", namespace);
        ObjectNode involved = event.putObject("involvedObject")
                .put("apiVersion", subject.apiVersion())
                .put("kind", subject.kind())
                .put("name", subject.name());
        if (!subject.namespace().isEmpty()) {
            involved.put("namespace", subject.namespace());
        }
        if (!subject.uid().isEmpty()) {
            involved.put("uid", subject.uid());
        }
        String time = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
        event.put("reason", reason)
                .put("message", shortened(message))
                .put("type", warning ? "Warning" : "Normal")
                .put("firstTimestamp", time)
                .put("lastTimestamp", time)
                .put("count", 1)
                .put("reportingComponent", component);
        event.putObject("source").put("component", component);
        return rest.post("/api/v1/namespaces/" + namespace + "/events", event.toString()).thenApply(response -> {
            if (response.outcome() != ApiResponse.Outcome.DONE) {
                log.debug("event not posted reason={} kind={} object={}/{} detail=\"{}\"", reason, subject.kind(), namespace, subject.name(),
                        response.describe());
                return false;
            }
            return true;
        });
    }

    /** The message, or its first bytes up to {@link #MESSAGE_LIMIT} with {@code " ..."}, cut between characters. */
    static String shortened(String message) {
        byte[] utf8 = message.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= MESSAGE_LIMIT) {
            return message;
        }
        int end = MESSAGE_LIMIT - CUT.length();
        // a continuation byte (10xxxxxx) is inside a character: step back to the character's first byte
        while (end > 0 && (utf8[end] & 0xC0) == 0x80) {
            end--;
        }
        return new String(utf8, 0, end, StandardCharsets.UTF_8) + CUT;
    }
}
