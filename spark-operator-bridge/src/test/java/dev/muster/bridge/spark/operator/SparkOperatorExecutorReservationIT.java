package dev.muster.bridge.spark.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.spark.ConfMinResources;
import dev.muster.bridge.spark.ExecutorReservationConfig;
import dev.muster.bridge.spark.TestJars;
import dev.muster.bridge.spark.job.SumOfSquares;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.PeerProcesses;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import dev.muster.runtime.RuntimeOptions;
import dev.muster.runtime.informers.KubernetesResources;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Executor reservation (the engine's {@code executorreservation} plugin) for SparkApplications run by the real
 * spark-operator v2.5.2: the bridge gives the operator's PodGroup Muster's executor annotations, and once Muster
 * has bound the driver the room of its executors is held, so another job cannot take it.
 *
 * <p>Deterministic by sizes, as {@code SparkExecutorReservationIT}: three nodes of 4 cpu; the driver asks for 1
 * cpu and each of the 3 executors for 3, so one executor fits per node, and holding all three leaves no node with
 * the 2 cpu the other job's pod asks for, which without the hold any node would take (and then one executor would
 * never fit). The queue admits both (10 cpu and 2 of the cluster's 12), so admission is not what keeps it out
 * ({@link ExecutorReservationConfig}).
 */
@WithRealControlPlane(nodes = 3, nodeCpu = "4", nodeMemory = "16Gi")
class SparkOperatorExecutorReservationIT {
    private static final Duration WAIT = Duration.ofMinutes(2);
    /** Long enough for a local driver to start and create its executors on a loaded machine, short enough to see the hold end. */
    private static final String HOLD_TIMEOUT = "60s";
    private static final Path OUT = SparkOperatorOnRealControlPlane.OUT.resolve("reservation");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static SparkOperatorOnRealControlPlane operator;
    private static Path jobJar;
    private static Path kubeconfig;

    private final PeerProcesses drivers = new PeerProcesses();
    private Optional<LocalDriverContainer> driverContainer = Optional.empty();

    @BeforeAll
    static void startOperator(RealControlPlane controlPlane) throws InterruptedException {
        kubeconfig = controlPlane.kubeconfig();
        jobJar = TestJars.write(OUT.resolve("sum-of-squares.jar").toAbsolutePath(), Path.of("target", "test-classes"),
                "dev/muster/bridge/spark/job", SumOfSquares.class.getName());
        operator = SparkOperatorOnRealControlPlane.start(controlPlane, new RuntimeOptions("SparkOperatorExecutorReservationIT",
                ExecutorReservationConfig.withExecutorReservation(HOLD_TIMEOUT), Set.of("muster", "volcano"), Duration.ofMillis(100),
                Optional.empty()));
    }

    @AfterEach
    void removeApplications(KubernetesClient client) throws InterruptedException {
        if (driverContainer.isPresent()) {
            driverContainer.get().stop();
        }
        drivers.close();
        client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default").delete();
        await().atMost(WAIT).until(() -> client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default")
                .list().getItems().isEmpty());
        client.pods().inNamespace("default").withGracePeriod(0).delete();
        client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default").delete();
        client.genericKubernetesResources(SparkOperatorApi.COSCHEDULING_POD_GROUPS).inNamespace("default").delete();
        await().atMost(WAIT).until(() -> client.pods().inNamespace("default").list().getItems().isEmpty());
    }

    @AfterAll
    static void stopOperator() {
        if (operator != null) {
            operator.close();
        }
    }

    /** The operator's two paths to Muster: its Volcano scheduler, and a name in its {@code --kube-scheduler-names}. */
    static Stream<Arguments> paths() {
        return Stream.of(Arguments.of("volcano", SparkOperatorApi.volcanoPodGroupName("reserved")),
                Arguments.of("muster", SparkOperatorApi.coschedulingPodGroupName("reserved")));
    }

    @ParameterizedTest(name = "batchScheduler {0}")
    @MethodSource("paths")
    void theHeldRoomIsTheExecutorsWhenTheDriverCreatesThemAndNotAnotherJobs(String batchScheduler, String podGroup,
            KubernetesClient client) {
        // given: an application whose driver Muster binds; its executors' room is then held
        submit(client, application("reserved", batchScheduler));
        awaitMinResources(client, podGroup, ImmutableMap.of("cpu", "10", "memory", "3584Mi"));
        Pod driver = boundPod(client, "reserved-driver");
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode condition = reserved(client, podGroup);
            assertThat(condition.path("status").asText() + " " + condition.path("message").asText())
                    .as("PodGroup %s condition Reserved\n%s", podGroup, operator.peerLogs())
                    .startsWith("True executor room held: 3 of 3 missing executors");
        });

        // when: another job's pod asks for 2 cpu, which every node has but for the held room; then the driver runs
        client.pods().inNamespace("default").resource(other()).create();
        await().atMost(WAIT).until(() -> events(client, "Pod", "other").stream()
                .anyMatch(event -> event.getMessage().contains("held for the executors of default/" + podGroup)));
        driverContainer = Optional.of(LocalDriverContainer.start(client, driver, sparkSubmit(), kubeconfig, OUT.resolve("reserved"),
                drivers));

        // then: its executors, created by Spark's allocator in the driver, are bound into the held room, one per node
        await().atMost(WAIT).untilAsserted(() -> {
            List<Pod> executors = executors(client, "reserved");
            assertThat(executors).as("executors of reserved\n%s\n%s", drivers.tails(40), operator.peerLogs()).hasSize(3)
                    .allSatisfy(executor -> assertThat(executor.getSpec().getNodeName()).isNotNull());
        });
        List<Pod> executors = executors(client, "reserved");
        assertThat(executors).extracting(SparkOperatorExecutorReservationIT::groupOf).containsOnly(podGroup);
        // owned by the driver pod, as Spark makes them (and by the application, as the operator's pod template has them)
        assertThat(executors).allSatisfy(executor -> assertThat(executor.getMetadata().getOwnerReferences())
                .extracting(owner -> owner.getKind() + "/" + owner.getName()).contains("Pod/reserved-driver"));
        assertThat(executors).extracting(executor -> executor.getSpec().getNodeName()).doesNotHaveDuplicates();
        // and the hold ends because they are bound, not by its timeout; the other job never got into their room
        await().atMost(WAIT).untilAsserted(() -> assertThat(reserved(client, podGroup).path("status").asText()).isEqualTo("False"));
        assertThat(reserved(client, podGroup).path("reason").asText()).isEqualTo("ReservationEnded");
        assertThat(events(client, "PodGroup", podGroup)).noneMatch(event -> event.getMessage().startsWith("executor reservation released"));
        assertThat(client.pods().inNamespace("default").withName("other").get().getSpec().getNodeName()).isNull();
    }

    @Test
    void onTheSchedulerPluginsPathTheMirrorHoldsTheRoomUntilTheTimeoutAndSaysItReleasedIt(KubernetesClient client) {
        // given: an application for Muster by the operator's scheduler-plugins path, whose driver Muster binds
        submit(client, application("timed", "muster"));
        String podGroup = SparkOperatorApi.coschedulingPodGroupName("timed");
        JsonNode mirror = awaitMinResources(client, podGroup, ImmutableMap.of("cpu", "10", "memory", "3584Mi"));
        assertThat(mirror.path("metadata").path("annotations").path(ConfMinResources.EXPECTED_EXECUTORS).asText()).isEqualTo("3");
        boundPod(client, "timed-driver");

        // when: another job's pod asks for 2 cpu
        client.pods().inNamespace("default").resource(other()).create();

        // then: it is kept out while the hold lasts
        await().atMost(WAIT).until(() -> events(client, "Pod", "other").stream()
                .anyMatch(event -> event.getMessage().contains("held for the executors of default/" + podGroup)));
        assertThat(client.pods().inNamespace("default").withName("other").get().getSpec().getNodeName()).isNull();
        assertThat(reserved(client, podGroup).path("status").asText()).isEqualTo("True");

        // and when the hold times out (no driver runs here, so no executor comes), the room is the other job's, and the group says so
        boundPod(client, "other");
        await().atMost(WAIT).untilAsserted(() -> assertThat(events(client, "PodGroup", podGroup))
                .anyMatch(event -> event.getType().equals("Warning") && event.getMessage().startsWith("executor reservation released")));
        assertThat(reserved(client, podGroup).path("status").asText()).isEqualTo("False");
    }

    /**
     * Dynamic allocation (the operator's example's {@code initialExecutors: 2}, {@code minExecutors: 1}), sized by
     * memory: an executor of 14g (15,769 MiB with Spark's overhead) fits an empty node of 16 GiB but not the driver's,
     * so the room of the 2 initial executors is the two other nodes, and the other job's pod of 15,600 MiB fits only
     * there. Admission counts only the initial executors (with the other pod, 48,034 of the cluster's 49,152 MiB),
     * so it is the hold that keeps the other pod out.
     */
    @Test
    void withDynamicAllocationTheInitialExecutorsRoomIsHeldAndTheyAreBoundIntoIt(KubernetesClient client) {
        // given
        ObjectNode application = application("elastic", "volcano");
        ObjectNode spec = TestingApplications.spec(application);
        ((ObjectNode) spec.path("executor")).put("instances", 1).put("cores", 1).put("memory", "14g");
        spec.putObject("dynamicAllocation").put("enabled", true).put("initialExecutors", 2).put("minExecutors", 1).put("maxExecutors", 3);
        ((ObjectNode) spec.path("sparkConf")).put("spark.dynamicAllocation.shuffleTracking.enabled", "true");
        submit(client, application);
        String podGroup = SparkOperatorApi.volcanoPodGroupName("elastic");
        JsonNode group = awaitMinResources(client, podGroup, ImmutableMap.of("cpu", "3", "memory", "32434Mi"));
        assertThat(group.path("metadata").path("annotations").path(ConfMinResources.EXPECTED_EXECUTORS).asText()).isEqualTo("2");
        assertThat(group.path("metadata").path("annotations").path(ConfMinResources.GANG_EXECUTORS).asText()).isEqualTo("1");
        Pod driver = boundPod(client, "elastic-driver");
        await().atMost(WAIT).untilAsserted(() -> assertThat(reserved(client, podGroup).path("status").asText() + " "
                + reserved(client, podGroup).path("message").asText()).as("PodGroup %s condition Reserved\n%s", podGroup, operator.peerLogs())
                .startsWith("True executor room held: 2 of 2 missing executors"));

        // when: another job's pod that fits only where the executors' room is held; then the driver runs
        client.pods().inNamespace("default").resource(other("1", "15600Mi")).create();
        await().atMost(WAIT).until(() -> events(client, "Pod", "other").stream()
                .anyMatch(event -> event.getMessage().contains("held for the executors of default/" + podGroup)));
        driverContainer = Optional.of(LocalDriverContainer.start(client, driver, sparkSubmit(), kubeconfig, OUT.resolve("elastic"),
                drivers));

        // then: Spark's allocator creates the initial executors and they are bound into the held room, off the driver's node
        await().atMost(WAIT).untilAsserted(() -> assertThat(executors(client, "elastic").stream()
                .filter(executor -> executor.getSpec().getNodeName() != null).map(executor -> executor.getSpec().getNodeName()))
                .as("bound executors of elastic\n%s\n%s", drivers.tails(40), operator.peerLogs()).hasSize(2).doesNotHaveDuplicates()
                .doesNotContain(driver.getSpec().getNodeName()));
        await().atMost(WAIT).untilAsserted(() -> assertThat(reserved(client, podGroup).path("reason").asText()).isEqualTo("ReservationEnded"));
        assertThat(events(client, "PodGroup", podGroup)).noneMatch(event -> event.getMessage().startsWith("executor reservation released"));
        assertThat(client.pods().inNamespace("default").withName("other").get().getSpec().getNodeName()).isNull();
    }

    /**
     * The operator's Volcano example with 3 executors of 3 cpu, running the tests' own job from a jar on this machine
     * (a {@code local://} path, as one in the image would be), for {@code batchScheduler} and as the pods' scheduler name.
     */
    private static ObjectNode application(String name, String batchScheduler) {
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        ((ObjectNode) application.path("metadata")).put("name", name);
        ObjectNode spec = TestingApplications.spec(application);
        spec.put("batchScheduler", batchScheduler).put("mainClass", SumOfSquares.class.getName())
                .put("mainApplicationFile", "local://" + jobJar).putArray("arguments").add("1000");
        ((ObjectNode) spec.path("executor")).put("instances", 3).put("cores", 3);
        spec.putObject("sparkConf").put("spark.kubernetes.scheduler.name", batchScheduler);
        return application;
    }

    private static void submit(KubernetesClient client, ObjectNode application) {
        client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default")
                .resource(JSON.convertValue(application, GenericKubernetesResource.class)).create();
    }

    private static Path sparkSubmit() {
        return PeerInstaller.locate().install(List.of("spark")).get("spark").executable();
    }

    private static Pod other() {
        return other("2", "256Mi");
    }

    private static Pod other(String cpu, String memory) {
        return new PodBuilder().withNewMetadata().withName("other").endMetadata().withNewSpec().withSchedulerName("muster")
                .addNewContainer().withName("main").withImage("busybox").withNewResources()
                .addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(memory)).endResources().endContainer()
                .endSpec().build();
    }

    private static Pod boundPod(KubernetesClient client, String name) {
        await().atMost(WAIT).untilAsserted(() -> {
            Pod pod = client.pods().inNamespace("default").withName(name).get();
            assertThat(pod).as("pod %s\n%s", name, operator.peerLogs()).isNotNull();
            assertThat(pod.getSpec().getNodeName()).as("pod %s bound\n%s", name, operator.peerLogs()).isNotNull();
        });
        return client.pods().inNamespace("default").withName(name).get();
    }

    /** A pod's group: Volcano's annotation (the operator's Volcano path), else scheduler-plugins' label (its kube-scheduler path). */
    private static String groupOf(Pod pod) {
        String volcano = pod.getMetadata().getAnnotations().get("scheduling.k8s.io/group-name");
        return volcano != null ? volcano : pod.getMetadata().getLabels().get("scheduling.x-k8s.io/pod-group");
    }

    private static List<Pod> executors(KubernetesClient client, String application) {
        return client.pods().inNamespace("default").withLabel(SparkOperatorApi.APP_NAME_LABEL, application).withLabel("spark-role", "executor")
                .list().getItems();
    }

    private static JsonNode podGroup(KubernetesClient client, String name) {
        return JSON.valueToTree(client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                .withName(name).get());
    }

    /** The PodGroup's {@code Reserved} condition, a missing node when it has none. */
    private static JsonNode reserved(KubernetesClient client, String name) {
        return StreamSupport.stream(podGroup(client, name).path("status").path("conditions").spliterator(), false)
                .filter(condition -> condition.path("type").asText().equals("Reserved")).findFirst()
                .orElse(JSON.missingNode());
    }

    private static JsonNode awaitMinResources(KubernetesClient client, String name, ImmutableMap<String, String> expected) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(podGroup(client, name).path("spec").path("minResources"))
                .as("PodGroup %s\n%s", name, operator.peerLogs()).isEqualTo(JSON.valueToTree(expected)));
        return podGroup(client, name);
    }

    private static List<Event> events(KubernetesClient client, String kind, String name) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getKind().equals(kind) && event.getInvolvedObject().getName().equals(name))
                .toList();
    }
}
