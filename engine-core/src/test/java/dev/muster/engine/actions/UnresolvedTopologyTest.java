package dev.muster.engine.actions;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NetworkTopology;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A job whose network topology cannot be resolved stays pending with the reason; the others are placed. */
class UnresolvedTopologyTest {
    private static final TestingScheduler SCHEDULER = TestingScheduler.withConfig("""
            actions: "enqueue, allocate"
            tiers:
            - plugins:
              - name: gang
              - name: predicates
              - name: network-topology-aware
            """);

    @Test
    void aMissingMemberHyperNodeKeepsTopologyJobsPendingWithTheReason() {
        // given: the spine names a switch that does not exist
        ClusterSnapshot scenario = ClusterScenario.builder()
                .node("s0-n1", cpu(2))
                .node("s0-n2", cpu(2))
                .hyperNodeOfNodes("s0", 1, "s0-n1", "s0-n2")
                .hyperNodeOfHyperNodes("spine", 2, "s0", "rack-b")
                .job("ns/topology", "default", 2, cpu(1), 2)
                .networkTopology("ns/topology", new NetworkTopology(true, Optional.of(2), Optional.empty()))
                .job("ns/plain", "default", 1, cpu(1), 1)
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(scenario);

        // then
        assertThat(result.binds()).hasSize(1);
        assertThat(result.jobs().get(JobId.parse("ns/plain")).ready()).isTrue();
        assertThat(result.jobs().get(JobId.parse("ns/topology")).reason().orElseThrow())
                .contains("the network topology cannot be resolved: hypernode spine: member hypernode rack-b does not exist");
    }
}
