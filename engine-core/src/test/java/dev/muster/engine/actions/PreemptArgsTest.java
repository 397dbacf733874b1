package dev.muster.engine.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.testing.TestingScheduler;
import org.junit.jupiter.api.Test;

class PreemptArgsTest {
    private static final String TIERS = """
            tiers:
            - plugins:
              - name: gang
            """;

    @Test
    void defaultsAreVolcanos() {
        assertThat(PreemptArgs.DEFAULTS).isEqualTo(new PreemptArgs(true, false, 16, 10, 1, 100));
        assertThat(PredicateCacheArgs.DEFAULTS.predicateErrorCacheEnable()).isTrue();
    }

    @Test
    void everyVolcanoPreemptArgumentLoads() {
        // when
        SessionConfig config = TestingScheduler.loader().parse("test.conf", """
                actions: "preempt, reclaim, backfill"
                """ + TIERS + """
                configurations:
                - name: preempt
                  arguments:
                    predicateErrorCacheEnable: false
                    enableTopologyAwarePreemption: true
                    topologyAwarePreemptWorkerNum: 8
                    minCandidateNodesPercentage: 20
                    minCandidateNodesAbsolute: 2
                    maxCandidateNodesAbsolute: 50
                - name: reclaim
                  arguments:
                    predicateErrorCacheEnable: false
                - name: backfill
                  arguments:
                    predicateErrorCacheEnable: false
                """);

        // then
        assertThat(config.actions()).extracting(action -> action.name()).containsExactly("preempt", "reclaim", "backfill");
    }

    @Test
    void anUnknownArgumentIsRejected() {
        assertThatThrownBy(() -> TestingScheduler.loader().parse("test.conf", """
                actions: "preempt"
                """ + TIERS + """
                configurations:
                - name: preempt
                  arguments:
                    enableTopologyAwarePreemptoin: true
                """))
                .hasMessageContaining("unknown argument 'enableTopologyAwarePreemptoin'")
                .hasMessageContaining("did you mean 'enableTopologyAwarePreemption'");
    }

    @Test
    void aPercentageAbove100IsRejected() {
        assertThatThrownBy(() -> TestingScheduler.loader().parse("test.conf", """
                actions: "preempt"
                """ + TIERS + """
                configurations:
                - name: preempt
                  arguments:
                    minCandidateNodesPercentage: 150
                """))
                .hasMessageContaining("minCandidateNodesPercentage must be between 0 and 100: 150");
    }
}
