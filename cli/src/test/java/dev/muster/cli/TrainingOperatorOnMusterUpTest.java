package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real training operator (v1.9.4) against {@code muster up --peer training-operator}, which installs and starts it:
 * the operator makes the dist-mnist TFJob's Volcano PodGroup and pods, Muster binds the four pods whole, the
 * simulated kubelet ends them, and the operator marks the job Succeeded. The example is
 * {@code kubeflow-bridge}'s copy of the operator's v1.9.0 {@code examples/tensorflow/dist-mnist/tf_job_mnist.yaml}
 * (Apache-2.0, origin in that module's {@code src/test/resources/examples/README.md}), given 1 cpu per pod and a
 * {@code muster.dev/duration} for the simulated kubelet. Beside the operator, Muster's native mode is off. Run on the
 * embedded API server and, with {@code --apiserver real}, on a real kube-apiserver and etcd.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class TrainingOperatorOnMusterUpTest {
    private static final Duration WAIT = Duration.ofSeconds(180);
    /** The component of the operator's TFJob Events ({@code tfjob_controller.go}: {@code controllerName}). */
    private static final String OPERATOR_COMPONENT = "tfjob-controller";
    /** The component of native mode's Events ({@code NativeJobWriter.COMPONENT}, package-private in kubeflow-bridge). */
    private static final String NATIVE_COMPONENT = "muster-kubeflow-native";

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(WAIT);

    @ParameterizedTest(name = "--apiserver {0}")
    @ValueSource(strings = {"embedded", "real"})
    void theDistMnistTfJobIsGangBoundAndSucceeds(String apiServer) throws Exception {
        // given: muster up with two nodes of 8 CPUs, on its embedded API server or a real kube-apiserver and etcd,
        // and the training operator watching it
        KubernetesClient client = up.start(directory, "--apiserver", apiServer, "--nodes", "2:cpu=8,memory=32Gi", "--peer",
                "training-operator");

        // when
        TrainingObjects.submit(client, TrainingObjects.example("tf-dist-mnist.yaml", "3s"));

        // then: the operator's PodGroup is the whole job (read while the job runs: the operator deletes it once the job has
        // ended), its four pods name it, and the job succeeds. The operator makes the PodGroup and the kubeflow bridge then
        // adds the task-topology default to it, so the annotation is awaited, not read from the first PodGroup seen.
        await().atMost(WAIT).untilAsserted(() -> assertThat(TrainingObjects.podGroup(client, "dist-mnist-for-e2e-test"))
                .as("the operator's PodGroup").hasValueSatisfying(podGroup -> {
                    assertThat(podGroup.<Object>get("spec", "minMember")).isEqualTo(4);
                    assertThat(podGroup.getMetadata().getAnnotations()).containsEntry("volcano.sh/task-topology-affinity", "ps,worker");
                }));
        await().atMost(WAIT).untilAsserted(() -> assertThat(TrainingObjects.status(client, "tfjobs", "dist-mnist-for-e2e-test", "Succeeded"))
                .as("the TFJob's Succeeded condition (muster up's stdout names the operator's log)").isEqualTo("True"));
        List<Pod> pods = TrainingObjects.pods(client, "dist-mnist-for-e2e-test");
        assertThat(pods).hasSize(4).allSatisfy(pod -> {
            assertThat(pod.getMetadata().getAnnotations()).containsEntry(SchedulingApi.GROUP_NAME_ANNOTATION, "dist-mnist-for-e2e-test");
            assertThat(pod.getSpec().getNodeName()).isNotEmpty();
        });
        // bound whole: every pod started before any pod ended
        Instant lastStart = pods.stream().map(pod -> Instant.parse(pod.getStatus().getStartTime())).max(Instant::compareTo).orElseThrow();
        Instant firstEnd = pods.stream().flatMap(pod -> pod.getStatus().getContainerStatuses().stream())
                .filter(status -> status.getState().getTerminated() != null)
                .map(status -> Instant.parse(status.getState().getTerminated().getFinishedAt())).min(Instant::compareTo).orElseThrow();
        assertThat(lastStart).isBeforeOrEqualTo(firstEnd);

        // and Muster's native mode is off beside the operator: muster up does not list it, and it said nothing of the job,
        // where it would have said the job succeeded from its own component (both would make the same pods)
        assertThat(up.output()).contains("kubeflow (").doesNotContain("kubeflow-native (");
        await().atMost(WAIT).until(() -> events(client).stream().anyMatch(event -> event.getReason().equals("TFJobSucceeded")
                && OPERATOR_COMPONENT.equals(event.getSource().getComponent())));
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).untilAsserted(() -> assertThat(events(client))
                .extracting(event -> event.getSource().getComponent()).as("the components of the TFJob's Events")
                .doesNotContain(NATIVE_COMPONENT));
    }

    private static List<Event> events(KubernetesClient client) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> "TFJob".equals(event.getInvolvedObject().getKind())
                        && "dist-mnist-for-e2e-test".equals(event.getInvolvedObject().getName()))
                .toList();
    }
}
