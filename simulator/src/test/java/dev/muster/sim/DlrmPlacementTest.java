package dev.muster.sim;

import static dev.muster.sim.SimulationTest.job;
import static dev.muster.sim.SimulationTest.workload;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.model.Resources;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.metrics.GangRecord;
import dev.muster.sim.metrics.RolePairs;
import dev.muster.sim.metrics.RunResult;
import dev.muster.sim.policy.PolicySpec;
import dev.muster.sim.workload.DlrmLoader;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.ParameterServers;
import dev.muster.sim.workload.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A DLRM app's CN and HN instances are kept on one node by task-topology where a node can hold both, and the run counts the pairs. */
class DlrmPlacementTest {
    private static final SchedulerConfigLoader LOADER = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
    private static final Resources HN = Resources.of(6000, 56.0 * (1L << 30)).withScalar(Resources.GPU, 1000).withScalar(DlrmLoader.RDMA, 10_000);
    private static final Resources CN = Resources.of(4000, 16.0 * (1L << 30)).withScalar(DlrmLoader.RDMA, 1000);
    private static final Resources NODE = Resources.of(64_000, 512.0 * (1L << 30)).withScalar(Resources.GPU, 8000).withScalar(DlrmLoader.RDMA, 100_000);

    /**
     * Three nodes of 8 GPUs in one rack; an app holds 6 GPUs of node-000 when a gang of one CN and four HN
     * arrives. Binpack fills node-000 first, so two HN land there and the rest elsewhere; task-topology
     * keeps the five together on an empty node.
     */
    private static Workload busyNodeAndServing() {
        GangSpec serving = new GangSpec("serving", 4, HN, 100_000).withRole(DlrmLoader.HN)
                .withParameterServers(new ParameterServers(1, CN, 0, DlrmLoader.CN, false));
        return workload(job("app_1@0", 0, new GangSpec("serving", 6, HN, 1_000_000).withRole(DlrmLoader.HN)),
                job("app_2@1", 1_000, serving));
    }

    @Test
    void taskTopologyPutsEveryCnHnPairOnOneNodeWhereTheDefaultSplitsThem() throws IOException {
        ClusterSpec cluster = ClusterSpec.uniform(3, NODE, 16);

        RolePairs split = app2(SimulationTest.run("muster", cluster, busyNodeAndServing()));
        RolePairs together = app2(run(topologyPolicy(), cluster, busyNodeAndServing()));

        assertThat(together).isEqualTo(new RolePairs(4, 4, 4));
        assertThat(split.pairs()).isEqualTo(4);
        assertThat(split.sameNode()).isLessThan(4);
        assertThat(split.sameRack()).isEqualTo(4);
    }

    @Test
    void aGangOfOneRoleRecordsNoPairs() {
        RunResult run = SimulationTest.run("muster", ClusterSpec.uniform(3, NODE, 16), busyNodeAndServing());

        assertThat(run.gangs()).filteredOn(gang -> gang.job().equals("app_1@0")).singleElement()
                .extracting(GangRecord::pairs).isEqualTo(RolePairs.NONE);
    }

    @Test
    void aJobWhoseCnFitsNoNodeIsUnschedulableUpFront() {
        GangSpec serving = new GangSpec("serving", 1, HN, 100_000).withRole(DlrmLoader.HN)
                .withParameterServers(new ParameterServers(1, CN.multiply(32), 0, DlrmLoader.CN, false));

        RunResult run = SimulationTest.run("muster", ClusterSpec.uniform(3, NODE, 16), workload(job("app_3@0", 0, serving)));

        assertThat(run.jobs()).isEmpty();
        assertThat(run.unschedulable()).singleElement().asString().startsWith("app_3@0: a pod of gang serving (cpu 128");
    }

    private static PolicySpec topologyPolicy() throws IOException {
        Path conf = Path.of("..", "examples", "simulate", "muster-task-topology.conf");
        return new PolicySpec("topology", Optional.of(LOADER.parse(conf.toString(), Files.readString(conf))));
    }

    private static RunResult run(PolicySpec policy, ClusterSpec cluster, Workload workload) {
        return new Simulation(policy.name(), policy.newInstance(1), cluster, workload, SimulationOptions.DEFAULTS.withStuckAfterMillis(60_000),
                ProgressListener.NONE).run();
    }

    private static RolePairs app2(RunResult run) {
        return run.gangs().stream().filter(gang -> gang.job().equals("app_2@1")).findFirst().orElseThrow().pairs();
    }
}
