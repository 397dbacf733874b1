package dev.muster.runtime.metrics;

import static dev.muster.engine.testing.ClusterScenario.cpuMemory;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import org.junit.jupiter.api.Test;

class JobEvictionsTest {
    private static final ClusterSnapshot BOTH = ClusterScenario.builder()
            .node("n1", cpuMemory(8, 8))
            .queue("q", 1)
            .job("ml/gang", "q", 3, cpuMemory(1, 1), 0)
            .running("ml/gang", "gang-0", cpuMemory(1, 1), "n1")
            .running("ml/gang", "gang-1", cpuMemory(1, 1), "n1")
            .running("ml/gang", "gang-2", cpuMemory(1, 1), "n1")
            .job("ml/single", "q", 1, cpuMemory(1, 1), 0)
            .running("ml/single", "single-0", cpuMemory(1, 1), "n1")
            .build();

    @Test
    void aGangThatLosesSeveralPodsInOneCycleIsEvictedOnce() {
        JobEvictions evictions = new JobEvictions();

        ImmutableList<Integer> totals = evictions.record(BOTH, ImmutableList.of(evict("gang-0", "ml/gang"), evict("gang-1", "ml/gang"),
                evict("gang-2", "ml/gang")));

        assertThat(totals).containsExactly(1);
        assertThat(evictions.max()).isEqualTo(1);
    }

    @Test
    void eachJobsTotalGrowsAcrossCyclesAndTheMaxIsTheLargest() {
        // given
        JobEvictions evictions = new JobEvictions();
        evictions.record(BOTH, ImmutableList.of(evict("gang-0", "ml/gang")));
        evictions.record(BOTH, ImmutableList.of(evict("gang-1", "ml/gang"), evict("single-0", "ml/single")));

        // when
        ImmutableList<Integer> totals = evictions.record(BOTH, ImmutableList.of(evict("gang-2", "ml/gang")));

        // then
        assertThat(totals).containsExactly(3);
        assertThat(evictions.max()).isEqualTo(3);
        assertThat(evictions.size()).isEqualTo(2);
    }

    @Test
    void aJobIsForgottenOnceTheSnapshotNoLongerHasIt() {
        // given
        JobEvictions evictions = new JobEvictions();
        evictions.record(BOTH, ImmutableList.of(evict("gang-0", "ml/gang"), evict("single-0", "ml/single")));
        evictions.record(BOTH, ImmutableList.of(evict("gang-1", "ml/gang")));
        ClusterSnapshot singleOnly = ClusterScenario.builder()
                .node("n1", cpuMemory(8, 8))
                .queue("q", 1)
                .job("ml/single", "q", 1, cpuMemory(1, 1), 0)
                .running("ml/single", "single-0", cpuMemory(1, 1), "n1")
                .build();

        // when: a cycle without evictions, after the gang is deleted
        evictions.record(singleOnly, ImmutableList.of());

        // then
        assertThat(evictions.size()).isEqualTo(1);
        assertThat(evictions.max()).isEqualTo(1);
    }

    private static SessionResult.Eviction evict(String pod, String job) {
        return new SessionResult.Eviction(new TaskId("ml", pod), JobId.parse(job), new QueueName("q"), "reclaim", "reclaimed for a test");
    }
}
