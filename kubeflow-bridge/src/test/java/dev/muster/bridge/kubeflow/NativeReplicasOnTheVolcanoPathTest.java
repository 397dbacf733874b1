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
 * As {@link NativeReplicasMatchTheOperatorTest}, with the operator's {@code --gang-scheduler-name=volcano}:
 * pods for scheduler {@code volcano} with the annotations {@code scheduling.k8s.io/group-name} and
 * {@code volcano.sh/task-spec}. On this path the operator makes pods only once Muster has admitted the
 * job's PodGroup, so only the examples that fit the two 4-cpu nodes are compared: the GPU example's pods
 * would never be made.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "4", nodeMemory = "16Gi")
class NativeReplicasOnTheVolcanoPathTest {
    private static final Path OUT = Path.of("target", "kubeflow-runs", "native-volcano");
    private static TrainingOperatorOnRealControlPlane operator;
    private static KubernetesClient client;

    @BeforeAll
    static void startOperator(RealControlPlane controlPlane) throws InterruptedException {
        client = controlPlane.client();
        operator = TrainingOperatorOnRealControlPlane.start(controlPlane, OUT, "volcano");
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
                arguments("PyTorch CPU demo: nprocPerNode 2", TestingJobs.PYTORCH_CPU_DEMO, "pytorch-cpu"),
                arguments("PyTorch elastic echo: two Workers, 1 to 2", TestingJobs.PYTORCH_ELASTIC_ECHO, "pytorch-elastic"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void nativeModePlansThePodsAndServicesTheOperatorMakes(String example, String file, String name) {
        OperatorReplicas replicas = OperatorReplicas.made(client, TestingJobs.example(file, TrainingOperatorOnRealControlPlane.NAMESPACE, name),
                GangScheduling.volcano(), OUT);

        assertThat(replicas.planned().problems()).isEmpty();
        assertThat(names(replicas.planned().pods())).isEqualTo(names(replicas.pods())).isNotEmpty();
        assertThat(names(replicas.planned().services())).isEqualTo(names(replicas.services()));
        assertThat(replicas.pods()).allSatisfy(pod -> assertThat(pod.getMetadata().getAnnotations())
                .containsKeys(GangScheduling.GROUP_NAME_ANNOTATION, GangScheduling.TASK_SPEC_ANNOTATION));
        assertThat(replicas.differences()).as("differences of Muster's plan from the operator's, %s", example).isEmpty();
    }
}
