package dev.muster.sim;

import static dev.muster.sim.SimulationTest.job;
import static dev.muster.sim.SimulationTest.workload;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.metrics.JobRecord;
import dev.muster.sim.metrics.RunResult;
import dev.muster.sim.policy.PolicySpec;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.ParameterServers;
import dev.muster.sim.workload.PsWorkerJobs;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A PS/worker job runs slower when its PS and workers sit on different nodes, and task-topology keeps them together. */
class PsWorkerPlacementTest {
    private static final SchedulerConfigLoader LOADER = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
    private static final Resources GPU = Resources.of(6000, 56.0 * (1L << 30)).withScalar(Resources.GPU, 1000);
    private static final Resources NODE = Resources.of(64_000, 512.0 * (1L << 30)).withScalar(Resources.GPU, 8000);

    /**
     * Three nodes of 8 GPUs; a long job holds 6 GPUs of n-0 when a job of one PS and four 1-GPU workers
     * arrives. Binpack fills n-0 first, so two workers land there and the rest elsewhere; task-topology
     * keeps the five together on an empty node.
     */
    private static Workload busyNodeAndTraining() {
        GangSpec training = new GangSpec("main", 4, GPU, 100_000)
                .withParameterServers(new ParameterServers(1, PsWorkerJobs.PARAMETER_SERVER, 0.5));
        return workload(job("busy", 0, new GangSpec("main", 1, GPU.multiply(6), 1_000_000)), job("tf", 1_000, training));
    }

    @Test
    void theDefaultSplitsTheJobAndItRunsSlowerWhileTaskTopologyKeepsItOnOneNode() throws IOException {
        ClusterSpec cluster = ClusterSpec.uniform(3, NODE, 16);

        JobRecord split = tf(SimulationTest.run("muster", cluster, busyNodeAndTraining()));
        JobRecord together = tf(run(topologyPolicy(), cluster, busyNodeAndTraining()));

        assertThat(together.completedMillis()).isEqualTo(1_000 + 100_000);
        assertThat(split.completedMillis()).isGreaterThan(together.completedMillis());
    }

    @Test
    void theRemoteFractionCountsEveryWorkerPsPair() {
        NodeName n1 = new NodeName("n1");
        NodeName n2 = new NodeName("n2");
        ParameterServers servers = new ParameterServers(2, PsWorkerJobs.PARAMETER_SERVER, 0.5);

        assertThat(ParameterServers.remoteFraction(List.of(n1), List.of(n1, n1))).isZero();
        assertThat(ParameterServers.remoteFraction(List.of(n1, n2), List.of(n1, n2))).isEqualTo(0.5);
        assertThat(ParameterServers.remoteFraction(List.of(n1), List.of(n2, n2, n1, n2))).isEqualTo(0.75);
        assertThat(servers.stretch(100_000, List.of(n1), List.of(n2))).isEqualTo(150_000);
    }

    @Test
    void multiPodJobsAreKeptWithOneParameterServerPerEightWorkers() {
        Workload mapped = PsWorkerJobs.of(workload(job("one", 0, new GangSpec("main", 1, GPU, 1_000)),
                job("nine", 0, new GangSpec("main", 9, GPU, 1_000))));

        assertThat(mapped.jobs()).extracting(WorkloadJob::id).containsExactly("nine");
        assertThat(mapped.skippedJobs()).isEqualTo(1);
        GangSpec nine = mapped.jobs().get(0).gangs().get(0);
        assertThat(nine.parameterServerCount()).isEqualTo(2);
        assertThat(nine.podCount()).isEqualTo(11);
        assertThat(nine.podName(1)).isEqualTo("main-ps-1");
        assertThat(nine.podName(2)).isEqualTo("main-worker-0");
        assertThat(nine.role(1)).isEqualTo("ps");
        assertThat(nine.role(10)).isEqualTo("worker");
        assertThat(nine.total()).isEqualTo(GPU.multiply(9).add(PsWorkerJobs.PARAMETER_SERVER.multiply(2)));
    }

    private static PolicySpec topologyPolicy() throws IOException {
        Path conf = Path.of("..", "examples", "simulate", "muster-task-topology.conf");
        return new PolicySpec("topology", Optional.of(LOADER.parse(conf.toString(), Files.readString(conf))));
    }

    private static RunResult run(PolicySpec policy, ClusterSpec cluster, Workload workload) {
        return new Simulation(policy.name(), policy.newInstance(1), cluster, workload, SimulationOptions.DEFAULTS.withStuckAfterMillis(60_000),
                ProgressListener.NONE).run();
    }

    private static JobRecord tf(RunResult run) {
        return run.jobs().stream().filter(job -> job.id().equals("tf")).findFirst().orElseThrow();
    }
}
