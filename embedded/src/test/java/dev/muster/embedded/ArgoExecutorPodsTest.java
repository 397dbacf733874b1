package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.peers.PeerInstaller;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulated kubelet runs a pod of Argo's resource template with Argo's real executor ({@code peers/install argoexec}):
 * pods shaped as Argo v4.0.5's controller makes them ({@code workflow/controller/workflowpod.go}, and a pod it made on
 * {@code muster up}: an {@code init} container running {@code argoexec init}, which writes the template and a copy of
 * itself to {@code /var/run/argo}, and a {@code main} container whose emissary, that copy, runs {@code argoexec resource
 * create}, with the {@code var-run-argo} and {@code tmp-dir-argo} emptyDir volumes), whose template's manifest the
 * executor really creates.
 */
class ArgoExecutorPodsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path directory;

    private static EmbeddedApiServer server;
    private static KubernetesClient client;
    private static SimulatedKubelet kubelet;

    @BeforeAll
    static void start() throws Exception {
        Path argoexec = PeerInstaller.locate().install(List.of("argoexec")).get("argoexec").executable();
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
        Path kubeconfig = directory.resolve("kubeconfig");
        server.writeKubeconfig(kubeconfig);
        kubelet = new SimulatedKubelet(client, Clock.systemUTC());
        kubelet.start();
        kubelet.runArgoExecutors(ArgoExecutorPods.start(argoexec, kubeconfig, Files.createDirectories(directory.resolve("pods"))));
    }

    @AfterAll
    static void stop() {
        kubelet.close();
        client.close();
        server.close();
    }

    @Test
    void twoResourcePodsAtOnceEachCreateTheirManifestsObjectThroughArgosExecutor() throws Exception {
        // given: two pods at once, whose executors both write their manifest to /tmp/manifest.yaml
        create(resourcePod("made-a", configMap("made-by-a", "1"), ""));
        create(resourcePod("made-b", configMap("made-by-b", "2"), ""));

        // when
        bind("made-a");
        bind("made-b");

        // then: each made its own object, and ended Succeeded with main's exit code
        await().atMost(WAIT).until(() -> phase("made-a").equals("Succeeded") && phase("made-b").equals("Succeeded"));
        assertThat(client.configMaps().withName("made-by-a").get().getData()).containsEntry("x", "1");
        assertThat(client.configMaps().withName("made-by-b").get().getData()).containsEntry("x", "2");
        assertThat(client.pods().withName("made-a").get().getStatus().getContainerStatuses()).singleElement()
                .satisfies(main -> assertThat(main.getState().getTerminated().getExitCode()).isZero());
    }

    @Test
    void aMetFailureConditionFailsThePodWithTheExecutorsMessage() throws Exception {
        create(resourcePod("fails", configMap("made-to-fail", "1"), "data.x = 1"));

        bind("fails");

        await().atMost(WAIT).until(() -> phase("fails").equals("Failed"));
        assertThat(client.configMaps().withName("made-to-fail").get()).isNotNull();
        assertThat(client.pods().withName("fails").get().getStatus().getContainerStatuses()).singleElement().satisfies(main -> {
            assertThat(main.getState().getTerminated().getExitCode()).isNotZero();
            assertThat(main.getState().getTerminated().getMessage()).contains("failure condition");
        });
    }

    @Test
    void aVolumeTheKubeletCannotMountFailsThePodNamingIt() throws Exception {
        Pod pod = resourcePod("secret-volume", configMap("never-made", "1"), "");
        pod.getSpec().getVolumes().add(new VolumeBuilder().withName("credentials").withNewSecret().withSecretName("s").endSecret().build());
        pod.getSpec().getInitContainers().get(0).getVolumeMounts().add(new VolumeMountBuilder().withName("credentials")
                .withMountPath("/credentials").build());
        create(pod);

        bind("secret-volume");

        await().atMost(WAIT).until(() -> phase("secret-volume").equals("Failed"));
        assertThat(client.pods().withName("secret-volume").get().getStatus().getContainerStatuses()).singleElement()
                .satisfies(main -> assertThat(main.getState().getTerminated().getMessage())
                        .isEqualTo("pod default/secret-volume: volume credentials: only emptyDir volumes are run as a local process"));
        assertThat(client.configMaps().withName("never-made").get()).isNull();
    }

    @Test
    void aContainerTemplatesPodIsNotTheExecutorsAndRunsForItsDuration() throws Exception {
        Pod pod = resourcePod("container-template", configMap("unused", "1"), "");
        pod.getSpec().getContainers().set(0, new ContainerBuilder().withName("main").withImage("busybox")
                .withCommand("/var/run/argo/argoexec", "emissary", "--", "echo", "hello").build());
        pod.getMetadata().setAnnotations(Map.of(SchedulingApi.DURATION_ANNOTATION, "200ms"));

        assertThat(ArgoExecutorPods.runs(pod)).isFalse();
        create(pod);
        bind("container-template");

        await().atMost(WAIT).until(() -> phase("container-template").equals("Succeeded"));
        assertThat(client.configMaps().withName("unused").get()).isNull();
    }

    @Test
    void anExecutorThatIsNotAnExecutableFileIsRefusedNamingIt() {
        Path missing = directory.resolve("no-such-argoexec");

        assertThatThrownBy(() -> ArgoExecutorPods.start(missing, directory.resolve("kubeconfig"), directory.resolve("refused")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Argo's executor " + missing + " is not an executable file (peers/install argoexec builds it)");
    }

    @Test
    void anExecutorThatCannotRunInTheSandboxIsRefusedWithWhatItSaid() {
        // a dynamically linked program finds no loader in the sandbox's empty root
        assertThatThrownBy(() -> ArgoExecutorPods.start(Path.of("/bin/true"), directory.resolve("kubeconfig"), directory.resolve("probe-fails")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("cannot run Argo's executor /bin/true in a mount namespace of its own (unshare, exit code 127): ")
                .hasMessageContaining("No such file or directory");
    }

    private static String configMap(String name, String value) {
        return """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: %s
                data:
                  x: "%s"
                """.formatted(name, value);
    }

    /** A pod as Argo's controller makes one for a resource template that creates the manifest. */
    private static Pod resourcePod(String name, String manifest, String failureCondition) throws Exception {
        ObjectNode template = JSON.createObjectNode().put("name", "make");
        ObjectNode resource = template.putObject("resource").put("action", "create").put("manifest", manifest);
        if (!failureCondition.isEmpty()) {
            resource.put("failureCondition", failureCondition);
        }
        List<EnvVar> executorEnvironment = List.of(
                new EnvVarBuilder().withName("ARGO_POD_NAME").withNewValueFrom().withNewFieldRef("v1", "metadata.name").endValueFrom().build(),
                new EnvVarBuilder().withName("ARGO_POD_UID").withNewValueFrom().withNewFieldRef("v1", "metadata.uid").endValueFrom().build(),
                new EnvVar("ARGO_WORKFLOW_NAME", "wf", null),
                new EnvVar("ARGO_WORKFLOW_UID", "00000000-0000-0000-0000-000000000001", null),
                new EnvVar("ARGO_NODE_ID", name, null),
                new EnvVar("ARGO_INCLUDE_SCRIPT_OUTPUT", "false", null),
                new EnvVar("ARGO_DEADLINE", "0001-01-01T00:00:00Z", null));
        Container init = new ContainerBuilder().withName("init").withImage("quay.io/argoproj/argoexec:v4.0.5")
                .withCommand("argoexec", "init", "--loglevel", "info").withEnv(executorEnvironment)
                .addToEnv(new EnvVar("ARGO_CONTAINER_NAME", "init", null), new EnvVar("ARGO_TEMPLATE", JSON.writeValueAsString(template), null))
                .addNewVolumeMount().withName("var-run-argo").withMountPath("/var/run/argo").endVolumeMount().build();
        Container main = new ContainerBuilder().withName("main").withImage("quay.io/argoproj/argoexec:v4.0.5")
                .withCommand("/var/run/argo/argoexec", "emissary", "--loglevel", "info", "--", "argoexec", "resource", "create")
                .withEnv(executorEnvironment)
                .addToEnv(new EnvVar("ARGO_CONTAINER_NAME", "main", null))
                .addNewVolumeMount().withName("tmp-dir-argo").withMountPath("/tmp").withSubPath("0").endVolumeMount()
                .addNewVolumeMount().withName("var-run-argo").withMountPath("/var/run/argo").endVolumeMount().build();
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withNewSpec().withInitContainers(init).withContainers(main).withRestartPolicy("Never")
                .addNewVolume().withName("var-run-argo").withNewEmptyDir().endEmptyDir().endVolume()
                .addNewVolume().withName("tmp-dir-argo").withNewEmptyDir().endEmptyDir().endVolume()
                .endSpec().build();
    }

    private static void create(Pod pod) {
        client.pods().inNamespace("default").resource(pod).create();
    }

    private static void bind(String name) {
        client.pods().inNamespace("default").withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\": {\"nodeName\": \"node-1\"}}");
    }

    private static String phase(String name) {
        Pod pod = client.pods().inNamespace("default").withName(name).get();
        return pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
    }
}
