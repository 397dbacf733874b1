package dev.muster.runtime.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.Event;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventRecorderTest {
    private final TestingApiServer server = new TestingApiServer();
    private final EventRecorder recorder = EventRecorder.connect(server.client(), RetryPolicy.DEFAULT,
            Clock.fixed(Instant.parse("2026-12-07T12:00:00Z"), ZoneOffset.UTC), "muster");
    private final EventRecorder.Subject group = new EventRecorder.Subject("scheduling.volcano.sh/v1beta1", "PodGroup", "default", "big",
            "uid-1");

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aShortMessageIsPostedWhole() {
        // when
        boolean posted = recorder.record(group, true, "Unschedulable", "0/3 nodes are available: 3 Insufficient cpu.").join();

        // then
        assertThat(posted).isTrue();
        assertThat(events()).extracting(Event::getMessage, Event::getType, Event::getReason)
                .containsExactly(tuple("0/3 nodes are available: 3 Insufficient cpu.", "Warning", "Unschedulable"));
    }

    @Test
    void aMessageOverTheLimitIsCutBetweenCharactersAndSaysSo() {
        // given: a reason naming 300 pods, with a two-byte character straddling byte 1,020 of its UTF-8
        StringBuilder text = new StringBuilder("gang big waits: ");
        while (text.length() < 1019) {
            text.append('x');
        }
        text.append("é");
        for (int pod = 0; pod < 300; pod++) {
            text.append(" pod-").append(pod);
        }
        String message = text.toString();
        assertThat(message.getBytes(StandardCharsets.UTF_8)).hasSizeGreaterThan(EventRecorder.MESSAGE_LIMIT);

        // when
        assertThat(recorder.record(group, false, "Pending", message).join()).isTrue();

        // then: at most 1,024 bytes, the é left out whole, and the cut marked
        String posted = events().get(0).getMessage();
        assertThat(posted.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(EventRecorder.MESSAGE_LIMIT);
        assertThat(posted).endsWith(" ...").doesNotContain("é").doesNotContain("\uFFFD");
        assertThat(message).startsWith(posted.substring(0, posted.length() - " ...".length()));
        assertThat(posted).hasSize(1019 + " ...".length());
    }

    private List<Event> events() {
        return server.client().v1().events().inNamespace("default").list().getItems();
    }
}
