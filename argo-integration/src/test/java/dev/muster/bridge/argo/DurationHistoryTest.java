package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Durations of earlier runs, read from the {@code status.nodes} of a run of the real Argo v4.0.5 controller ({@code dag-fan-out}). */
class DurationHistoryTest {
    private final DurationHistory history = new DurationHistory();

    @Test
    void aFinishedRunGivesEachTemplateItsLongestSucceededPod() {
        // when
        history.record(TestingWorkflows.read("dag-fan-out"));

        // then: prepare ran 21:00:32 to :33; each train pod :42 to :44
        Workflow next = TestingWorkflows.read("dag-fan-out");
        assertThat(history.duration(next, "step")).contains(Duration.ofSeconds(1));
        assertThat(history.duration(next, "worker")).contains(Duration.ofSeconds(2));
        assertThat(history.duration(next, "main")).as("a DAG template is no pod").isEmpty();
    }

    @Test
    void aRunningWorkflowIsNotRecorded() {
        // given
        ObjectNode running = TestingWorkflows.load("dag-fan-out");
        ((ObjectNode) running.path("status")).put("phase", "Running");

        // when
        history.record(TestingWorkflows.read(running));

        // then
        assertThat(history.duration(TestingWorkflows.read("dag-fan-out"), "step")).isEmpty();
    }

    @Test
    void theRunThatFinishedLastWinsWhateverTheOrderTheyAreSeenIn() {
        // given: a later run of the same workflow (another uid) whose prepare took 10 s
        ObjectNode later = TestingWorkflows.load("dag-fan-out");
        ((ObjectNode) later.path("metadata")).put("uid", "later");
        ObjectNode prepare = (ObjectNode) later.path("status").path("nodes").path("dag-fan-out-2271192547");
        prepare.put("startedAt", "2026-12-02T08:00:00Z").put("finishedAt", "2026-12-02T08:00:10Z");

        // when: the later run is seen first
        history.record(TestingWorkflows.read(later));
        history.record(TestingWorkflows.read("dag-fan-out"));

        // then
        assertThat(history.duration(TestingWorkflows.read("dag-fan-out"), "step")).contains(Duration.ofSeconds(10));
    }

    @Test
    void anotherLineageHasItsOwnHistory() {
        // given
        history.record(TestingWorkflows.read("dag-fan-out"));
        ObjectNode other = TestingWorkflows.load("dag-fan-out");
        ((ObjectNode) other.path("metadata")).put("name", "other");

        // then
        assertThat(TestingWorkflows.read(other).lineage()).isEqualTo("name/other");
        assertThat(history.duration(TestingWorkflows.read(other), "step")).isEmpty();
    }
}
