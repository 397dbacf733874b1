package dev.muster.bridge.kubeflow;

import static dev.muster.bridge.kubeflow.OperatorReplicas.names;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Native mode's plan against the real training operator v1.9.4: for each of the operator's examples,
 * the operator on a real kube-apiserver makes the job's pods and Services, and {@link NativeReplicaPlanner}
 * plans them from the same job as the API server stores it; every field of every object must be equal,
 * but for the differences of {@link OperatorReplicas#ACCEPTED}.
 *
 * <p>The operator runs with {@code --gang-scheduler-name=muster} (the scheduler-plugins path), on which it
 * makes every pod at once, whether or not the gang fits: so the GPU example is compared unchanged on
 * nodes without GPUs. Its pods stay Pending; the others are bound by Muster and run on KWOK, which
 * changes their status and node only. {@link NativeReplicasOnTheVolcanoPathTest} compares the Volcano marks.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "4", nodeMemory = "16Gi")
class NativeReplicasMatchTheOperatorTest {
    private static final Path OUT = Path.of("target", "kubeflow-runs", "native-scheduler-plugins");
    private static final String GANG_SCHEDULER = "muster";
    private static TrainingOperatorOnRealControlPlane operator;
    private static KubernetesClient client;

    @BeforeAll
    static void startOperator(RealControlPlane controlPlane) throws InterruptedException {
        client = controlPlane.client();
        operator = TrainingOperatorOnRealControlPlane.start(controlPlane, OUT, GANG_SCHEDULER);
    }

    @AfterAll
    static void stopOperator() {
        if (operator != null) {
            operator.close();
        }
    }

    @AfterEach
    void keepTheRun(TestInfo test) {
        operator.keepPeerLogs(test.getDisplayName());
    }

    static Stream<Arguments> examples() {
        return Stream.of(
                arguments("TF dist-mnist: Chief, PS and two Workers", TestingJobs.TF_DIST_MNIST, "tf-dist-mnist"),
                arguments("PyTorch mnist: Master and Worker with a GPU each", TestingJobs.PYTORCH_MNIST_NCCL, "pytorch-mnist"),
                arguments("PyTorch CPU demo: nprocPerNode 2", TestingJobs.PYTORCH_CPU_DEMO, "pytorch-cpu"),
                arguments("PyTorch elastic echo: two Workers, 1 to 2", TestingJobs.PYTORCH_ELASTIC_ECHO, "pytorch-elastic"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void nativeModePlansThePodsAndServicesTheOperatorMakes(String example, String file, String name) {
        // given, when: the example as users submit it, made by the real operator and planned by native mode
        OperatorReplicas replicas = OperatorReplicas.made(client, TestingJobs.example(file, TrainingOperatorOnRealControlPlane.NAMESPACE, name),
                GangScheduling.schedulerPlugins(GANG_SCHEDULER), OUT);

        // then: the same objects, field by field
        assertThat(replicas.planned().problems()).isEmpty();
        assertThat(names(replicas.planned().pods())).isEqualTo(names(replicas.pods())).isNotEmpty();
        assertThat(names(replicas.planned().services())).isEqualTo(names(replicas.services()));
        assertThat(replicas.differences()).as("differences of Muster's plan from the operator's, %s", example).isEmpty();
    }
}
