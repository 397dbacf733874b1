package dev.muster.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Queue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RolePairsTest {
    private static final NodeName CPU_0 = new NodeName("cn-000");
    private static final NodeName CPU_1 = new NodeName("cn-001");
    private static final NodeName GPU_0 = new NodeName("hn-000");
    private static final NodeName GPU_1 = new NodeName("hn-001");
    private static final Map<NodeName, String> RACKS = Map.of(CPU_0, "dc-rack-0", GPU_0, "dc-rack-0", CPU_1, "dc-rack-1", GPU_1, "dc-rack-1");

    @Test
    void everyPairOfOneFirstAndOneSecondRolePodIsCountedByNodeAndByRack() {
        // CN on cn-000 and hn-000; HN on hn-000 twice and hn-001: 2 x 3 = 6 pairs
        RolePairs pairs = RolePairs.count(List.of(CPU_0, GPU_0), List.of(GPU_0, GPU_0, GPU_1), RACKS::get);

        // on one node: the CN on hn-000 with both HN there
        assertThat(pairs.sameNode()).isEqualTo(2);
        // in one rack: each CN (both in rack 0) with the two HN of hn-000
        assertThat(pairs).isEqualTo(new RolePairs(6, 2, 4));
        assertThat(pairs.sameNodeFraction()).isEqualTo(2 / 6.0);
        assertThat(pairs.sameRackFraction()).isEqualTo(4 / 6.0);
    }

    @Test
    void aGangOfOneRoleHasNoPairs() {
        assertThat(RolePairs.count(List.of(), List.of(GPU_0, GPU_1), RACKS::get)).isEqualTo(RolePairs.NONE);
        assertThat(RolePairs.NONE.sameNodeFraction()).isZero();
    }

    @Test
    void pairsAddUpOverGangsAndPerApplication() {
        List<GangRecord> gangs = List.of(
                gang("app_1@0", new RolePairs(4, 4, 4)),
                gang("app_1@3600", new RolePairs(2, 0, 1)),
                gang("app_2@0", new RolePairs(3, 0, 0)),
                gang("app_2@60", RolePairs.NONE),
                gang("philly-7", new RolePairs(8, 8, 8)));

        assertThat(RolePairs.total(gangs)).isEqualTo(new RolePairs(17, 12, 13));
        assertThat(RolePairs.byApplication(gangs)).containsExactly(
                Map.entry("app_1", new RolePairs(6, 4, 5)),
                Map.entry("app_2", new RolePairs(3, 0, 0)),
                Map.entry("philly-7", new RolePairs(8, 8, 8)));
    }

    @Test
    void theSummaryCarriesThePairsAndTheUnplacedGangs() {
        List<GangRecord> gangs = List.of(gang("app_1@0", new RolePairs(4, 1, 2)),
                new GangRecord("app_1@60", "serving", 60_000, -1, -1, 0, true, 0));
        ImmutableList<JobRecord> jobs = ImmutableList.of(new JobRecord("app_1@0", Queue.DEFAULT, 0, 0, 1_000, 1, 1),
                new JobRecord("app_1@60", Queue.DEFAULT, 60_000, -1, -1, 1, 1));
        RunResult run = new RunResult("p", jobs, ImmutableList.copyOf(gangs), ImmutableList.of(), new Timeline(List.of()), 120_000, 1, false,
                "nvidia.com/gpu");

        Summary summary = Summary.of(run);

        assertThat(summary.rolePairs()).isEqualTo(new RolePairs(4, 1, 2));
        assertThat(summary.unplacedGangs()).isEqualTo(1);
    }

    private static GangRecord gang(String job, RolePairs pairs) {
        return new GangRecord(job, "serving", 0, 0, 1_000, 0, false, 0, pairs);
    }
}
