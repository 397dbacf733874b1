package dev.muster.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import dev.muster.engine.plugins.dag.DagAnnotations;
import dev.muster.graph.JobGraph;
import dev.muster.sim.workload.DurationEstimates;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.WorkloadJob;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DagHintsTest {
    private static final Resources CORE = Resources.of(1000, 1 << 30);

    /** a (10 s) then b (20 s) then d (0.4 s); a then c (15 s). */
    private static final WorkloadJob DIAMOND_LESS = new WorkloadJob("j_9", Queue.DEFAULT, 0,
            ImmutableList.of(gang("a", 10_000), gang("b", 20_000), gang("c", 15_000), gang("d", 400)),
            JobGraph.builder().node("a").node("b").node("c").node("d").edge("a", "b").edge("b", "d").edge("a", "c").build());

    @Test
    void eachGangCarriesItsDagItsNodeAndItsRemainingCriticalPath() {
        ImmutableMap<String, ImmutableMap<String, String>> annotations = new DagHints(DurationEstimates.ORACLE, 1).annotations(DIAMOND_LESS);

        assertThat(annotations.get("a")).containsExactlyInAnyOrderEntriesOf(Map.of(
                DagAnnotations.DAG, "j_9", DagAnnotations.NODE, "a", DagAnnotations.REMAINING_PATH, "31"));
        // a: 10 + max(b 20 + d 0.4, c 15) = 30.4 s, rounded up; d alone: 0.4 s counts as 1.
        assertThat(remainingPaths(annotations)).isEqualTo(Map.of("a", "31", "b", "21", "c", "15", "d", "1"));
    }

    @Test
    void noisyEstimatesChangeThePathsButNotBetweenRunsWithTheSameSeed() {
        DagHints noisy = new DagHints(DurationEstimates.lognormal(1), 3);

        Map<String, String> first = remainingPaths(noisy.annotations(DIAMOND_LESS));

        assertThat(remainingPaths(noisy.annotations(DIAMOND_LESS))).isEqualTo(first);
        assertThat(first).isNotEqualTo(remainingPaths(new DagHints(DurationEstimates.ORACLE, 3).annotations(DIAMOND_LESS)));
        assertThat(first).isNotEqualTo(remainingPaths(new DagHints(DurationEstimates.lognormal(1), 4).annotations(DIAMOND_LESS)));
    }

    @Test
    void aSingleGangJobIsADagOfOne() {
        WorkloadJob single = WorkloadJob.single("j_1", Queue.DEFAULT, 0, gang("main", 90_000));

        assertThat(remainingPaths(new DagHints(DurationEstimates.ORACLE, 1).annotations(single))).isEqualTo(Map.of("main", "90"));
    }

    private static Map<String, String> remainingPaths(ImmutableMap<String, ImmutableMap<String, String>> annotations) {
        return annotations.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().get(DagAnnotations.REMAINING_PATH)));
    }

    private static GangSpec gang(String name, long millis) {
        return new GangSpec(name, 2, CORE, millis);
    }
}
