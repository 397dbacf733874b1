package dev.muster.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.sim.cluster.ClusterSpecLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DlrmLoaderTest {
    private static final double GIB = 1L << 30;

    @Test
    void theInstancesOfAnAppCreatedAtOneSecondAreOneGangOfTwoRoles() {
        Workload workload = DlrmLoader.load(PhillyLoaderTest.fixture("alibaba_dlrm_v2025/dlrm_app_3.csv"), TraceSelection.ALL);

        assertThat(workload.problems()).isEmpty();
        assertThat(workload.jobs()).hasSize(12);
        WorkloadJob start = workload.jobs().get(0);
        assertThat(start.id()).isEqualTo("app_3@0");
        assertThat(start.arrivalMillis()).isZero();
        GangSpec gang = start.gangs().get(0);
        assertThat(gang.parameterServerCount()).isEqualTo(4);
        assertThat(gang.pods()).isEqualTo(4);
        assertThat(gang.role(0)).isEqualTo("CN");
        assertThat(gang.role(7)).isEqualTo("HN");
        assertThat(gang.podName(4)).isEqualTo("serving-hn-0");
        assertThat(gang.request(0)).isEqualTo(Resources.of(64_000, 320 * GIB).withScalar(DlrmLoader.RDMA, 1000));
        assertThat(gang.request(4)).isEqualTo(Resources.of(8000, 16 * GIB).withScalar(Resources.GPU, 1000).withScalar(DlrmLoader.RDMA, 25_000));
        // two of them are never deleted: the gang lives to the file's last time, second 2,048,689
        assertThat(gang.durationMillis()).isEqualTo(2_048_689_000L);
        assertThat(gang.parameterServers().orElseThrow().crossNodeSlowdown()).isZero();
    }

    @Test
    void aGangOfOneRoleHasNoSecondRoleAndLivesUntilItsLastInstanceIsDeleted() {
        Workload workload = DlrmLoader.load(PhillyLoaderTest.fixture("alibaba_dlrm_v2025/dlrm_app_3.csv"), TraceSelection.ALL);

        WorkloadJob cn = workload.jobs().get(1);
        assertThat(cn.id()).isEqualTo("app_3@986473");
        assertThat(cn.arrivalMillis()).isEqualTo(986_473_000L);
        assertThat(cn.gangs().get(0).parameterServers()).isEmpty();
        assertThat(cn.gangs().get(0).role(0)).isEqualTo("CN");
        assertThat(cn.gangs().get(0).durationMillis()).isEqualTo((990_497 - 986_473) * 1000L);
        WorkloadJob pair = workload.jobs().stream().filter(job -> job.id().equals("app_3@2030693")).findFirst().orElseThrow();
        assertThat(pair.gangs().get(0).pods()).isEqualTo(2);
        assertThat(pair.gangs().get(0).role(1)).isEqualTo("HN");
        assertThat(pair.gangs().get(0).durationMillis()).isEqualTo((2_048_689 - 2_030_693) * 1000L);
        assertThat(workload.queueWeights()).containsOnlyKeys(new QueueName(DlrmLoader.QUEUE));
    }

    @Test
    void theDefaultClusterIsTheExampleFile() {
        assertThat(DlrmLoader.defaultCluster().nodes())
                .isEqualTo(ClusterSpecLoader.load(Path.of("..", "examples", "simulate", "dlrm-racks.yaml")).nodes());
    }

    @Test
    void badRowsAreSkippedWithLineColumnAndValue(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("dlrm.csv");
        Files.writeString(trace, """
                instance_sn,role,app_name,cpu_request,cpu_limit,gpu_request,gpu_limit,rdma_request,rdma_limit,memory_request,memory_limit,disk_request,disk_limit,max_instance_per_node,creation_time,scheduled_time,deletion_time
                instance_0,HN,app_0,12,12,1,1,25,25,120.0,120.0,640.0,800.0,8,,,
                instance_1,XN,app_0,12,12,1,1,25,25,120.0,120.0,640.0,800.0,8,,,
                instance_2,CN,app_0,lots,64,0,0,1,1,320.0,320.0,240.0,300.0,-1,,,
                instance_3,CN,app_0,64,64,0,0,1,1,320.0,320.0,240.0,300.0,0,,,
                instance_4,CN,app_0,64,64,0,0,1,1,320.0,320.0,240.0,300.0,-1,50.0,50.0,10.0
                instance_5,CN,app_0,64,64,0,0,-1,1,320.0,320.0,240.0,300.0,-1,,,
                instance_6,CN,service,64,64,0,0,1,1,320.0,320.0,240.0,300.0,-1,,,
                instance_7,CN,app_0,64,64,0,0,1,1,320.0,320.0,240.0,300.0,-1,,,
                """);

        Workload workload = DlrmLoader.load(trace, TraceSelection.ALL);

        assertThat(workload.problems()).extracting(LoadProblem::describe).containsExactly(
                "dlrm.csv:3: role must be CN or HN: 'XN'",
                "dlrm.csv:4: cpu_request is not a number: 'lots'",
                "dlrm.csv:5: max_instance_per_node must be -1 or a positive integer: '0'",
                "dlrm.csv:6: deletion_time 10 is before creation_time 50",
                "dlrm.csv:7: rdma_request must not be negative: '-1'",
                "dlrm.csv:8: app_name is not app_<n>: 'service'");
        assertThat(workload.jobs()).singleElement().satisfies(job -> {
            assertThat(job.gangs().get(0).parameterServerCount()).isEqualTo(1);
            assertThat(job.gangs().get(0).pods()).isEqualTo(1);
        });
    }
}
