package dev.muster.runtime.binding;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.framework.SessionResult.JobOutcome;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code Reserved} condition a PodGroup gets while room is held for its executors. */
class PodGroupStatusReservationTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");
    private static final Job APP = new Job(JobId.parse("spark/app-podgroup"), "uid", new QueueName("default"), 1, ImmutableMap.of(),
            Optional.empty(), 0, "", PodGroupPhase.RUNNING, NOW, Optional.empty(), ImmutableMap.of(), ImmutableList.of(), ImmutableList.of());
    private static final String HELD = "executor room held: 3 of 3 missing executors (cpu 2) on n1×3";

    private static JobOutcome outcome(Optional<String> reservation) {
        return new JobOutcome(PodGroupPhase.RUNNING, true, Optional.empty(), ImmutableList.of(), reservation);
    }

    private static Optional<JsonNode> reserved(ObjectNode status) {
        for (JsonNode condition : status.path("conditions")) {
            if (condition.path("type").asText().equals(PodGroupStatus.RESERVED)) {
                return Optional.of(condition);
            }
        }
        return Optional.empty();
    }

    @Test
    void aHeldReservationIsATrueConditionWithWhatIsHeld() {
        // when
        ObjectNode status = PodGroupStatus.desired(MAPPER.createObjectNode(), APP, outcome(Optional.of(HELD)), NOW);

        // then
        assertThat(reserved(status)).hasValueSatisfying(condition -> {
            assertThat(condition.path("status").asText()).isEqualTo("True");
            assertThat(condition.path("reason").asText()).isEqualTo(PodGroupStatus.ROOM_HELD);
            assertThat(condition.path("message").asText()).isEqualTo(HELD);
        });
    }

    @Test
    void theConditionTurnsFalseWhenTheHoldEnds() {
        // given
        ObjectNode held = PodGroupStatus.desired(MAPPER.createObjectNode(), APP, outcome(Optional.of(HELD)), NOW);

        // when
        ObjectNode ended = PodGroupStatus.desired(held, APP, outcome(Optional.empty()), NOW.plusSeconds(60));

        // then
        assertThat(reserved(ended)).hasValueSatisfying(condition -> {
            assertThat(condition.path("status").asText()).isEqualTo("False");
            assertThat(condition.path("reason").asText()).isEqualTo(PodGroupStatus.RESERVATION_ENDED);
            assertThat(condition.path("lastTransitionTime").asText()).isEqualTo("2026-01-01T01:01:00Z");
        });
    }

    @Test
    void aPodGroupThatNeverHadAReservationGetsNoCondition() {
        // when
        ObjectNode status = PodGroupStatus.desired(MAPPER.createObjectNode(), APP, outcome(Optional.empty()), NOW);

        // then
        assertThat(reserved(status)).isEmpty();
    }
}
