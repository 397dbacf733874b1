package dev.muster.bridge.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.bridge.kubeflow.NativeJobStatus.ReplicaCounts;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The operator's setCondition rules, and the status read back as written. */
class NativeJobStatusTest {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final Instant T1 = T0.plusSeconds(10);

    @Test
    void theSameStatusAndReasonIsLeftAlone() {
        NativeJobStatus running = NativeJobStatus.EMPTY.withCondition("Running", true, "TFJobRunning", "first", T0);

        assertThat(running.withCondition("Running", true, "TFJobRunning", "second", T1)).isEqualTo(running);
    }

    @Test
    void runningAndRestartingReplaceEachOther() {
        NativeJobStatus status = NativeJobStatus.EMPTY.withCondition("Running", true, "TFJobRunning", "", T0)
                .withCondition("Restarting", true, "TFJobRestarting", "", T1);

        assertThat(status.conditions()).extracting(JobCondition::type).containsExactly("Restarting");
        assertThat(status.withCondition("Running", true, "TFJobRunning", "", T1).conditions()).extracting(JobCondition::type)
                .containsExactly("Running");
    }

    @Test
    void anUnchangedStatusKeepsItsTransitionTimeAndAnEndTurnsRunningFalse() {
        NativeJobStatus status = NativeJobStatus.EMPTY.withCondition("Running", true, "TFJobRunning", "", T0)
                .withCondition("Running", true, "TFJobResumed", "", T1);
        NativeJobStatus ended = status.withCondition("Succeeded", true, "TFJobSucceeded", "", T1);

        assertThat(status.condition("Running").orElseThrow().lastTransitionTime()).isEqualTo(T0);
        assertThat(status.condition("Running").orElseThrow().lastUpdateTime()).isEqualTo(T1);
        assertThat(ended.condition("Running").orElseThrow().status()).isFalse();
    }

    @Test
    void theStatusReadsBackAsWrittenAndKeepsFieldsItDoesNotKnow() {
        ObjectNode original = JsonNodeFactory.instance.objectNode().put("lastReconcileTime", "2026-03-01T09:00:00Z");
        NativeJobStatus status = NativeJobStatus.EMPTY.withCondition("Created", true, "TFJobCreated", "TFJob x is created.", T0)
                .withReplicaStatuses(ImmutableSortedMap.of("Worker", new ReplicaCounts(1, 2, 0))).withStartTime(T0).completedAt(T1);

        ObjectNode json = status.toJson(original);

        assertThat(NativeJobStatus.of(json)).isEqualTo(status);
        assertThat(json.path("lastReconcileTime").asText()).isEqualTo("2026-03-01T09:00:00Z");
        assertThat(json.path("replicaStatuses").path("Worker").has("failed")).isFalse();
        assertThat(json.path("completionTime").asText()).isEqualTo("2026-03-01T10:00:10Z");
    }
}
