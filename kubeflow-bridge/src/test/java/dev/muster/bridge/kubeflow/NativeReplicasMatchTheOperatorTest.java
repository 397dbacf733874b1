package dev.muster.bridge.kubeflow;

import static dev.muster.bridge.kubeflow.ObjectDifferences.Accepted.added;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.bridge.kubeflow.NativeReplicaPlanner.NativeReplicas;
import dev.muster.bridge.kubeflow.ObjectDifferences.Accepted;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
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
 * but for the differences of {@link #ACCEPTED}.
 *
 * <p>The operator runs with {@code --gang-scheduler-name=muster} (the scheduler-plugins path), on which it
 * makes every pod at once, whether or not the gang fits: so the GPU examples are compared unchanged on
 * nodes without GPUs. Their pods stay Pending; the others are bound by Muster and run on KWOK, which
 * changes their status and node only.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "4", nodeMemory = "16Gi")
class NativeReplicasMatchTheOperatorTest {
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final Path OUT = Path.of("target", "kubeflow-runs", "native");
    private static final String GANG_SCHEDULER = "muster";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Every difference accepted between Muster's plan and the operator's objects, each with its reason. */
    private static final List<Accepted> ACCEPTED = List.of(
            added("metadata\\.(uid|resourceVersion|creationTimestamp|generation|managedFields.*)",
                    "the API server's, on every object it stores"),
            added("spec\\.nodeName", "the scheduler's binding: Muster binds the pods that fit"),
            added("spec\\.(dnsPolicy|enableServiceLinks|preemptionPolicy|priority|securityContext"
                    + "|terminationGracePeriodSeconds)", "kube-apiserver's pod defaults (SetDefaults_PodSpec, priority admission)"),
            added("spec\\.(serviceAccount|serviceAccountName|volumes.*|containers\\[\\d+]\\.volumeMounts.*"
                    + "|initContainers\\[\\d+]\\.volumeMounts.*)", "the ServiceAccount admission plugin's token volume"),
            added("spec\\.tolerations.*", "the DefaultTolerationSeconds admission plugin's not-ready and unreachable tolerations"),
            added("spec\\.(containers|initContainers)\\[\\d+]\\.(terminationMessagePath|terminationMessagePolicy|imagePullPolicy)",
                    "kube-apiserver's container defaults (SetDefaults_Container; imagePullPolicy from the image's tag)"),
            added("spec\\.(containers|initContainers)\\[\\d+]\\.ports\\[\\d+]\\.protocol", "kube-apiserver's default port protocol, TCP"),
            added("spec\\.(containers|initContainers)\\[\\d+]\\.resources\\.requests(\\..+)?",
                    "kube-apiserver copies a container's limits to the requests it leaves out (SetDefaults_Pod)"),
            added("spec\\.(clusterIPs.*|type|sessionAffinity|ipFamilies.*|ipFamilyPolicy|internalTrafficPolicy)",
                    "kube-apiserver's Service defaults and IP allocation (headless: clusterIPs [None])"),
            added("spec\\.ports\\[\\d+]\\.(protocol|targetPort)", "kube-apiserver's Service port defaults (TCP, targetPort = port)"));

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
        // given: the example as users submit it, made by the real operator
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        ObjectNode manifest = TestingJobs.example(file, TrainingOperatorOnRealControlPlane.NAMESPACE, name);
        TrainingKind kind = TestingJobs.kindOf(manifest);
        int replicas = TrainingJobReader.read(kind, manifest).job().totalReplicas();
        jobs.submit(manifest);
        await().atMost(RUN).until(() -> jobs.pods(name).size() == replicas && services(name).size() == replicas);
        List<Pod> made = jobs.pods(name);
        List<Service> madeServices = services(name);
        keep(name, made, madeServices);

        // when: native mode plans the job as the API server stores it
        JsonNode stored = jobs.job(kind, name).orElseThrow();
        NativeReplicas planned = NativeReplicaPlanner.plan(NativeJobReader.read(kind, stored), GangScheduling.schedulerPlugins(GANG_SCHEDULER));

        // then: the same objects, field by field
        assertThat(planned.problems()).isEmpty();
        assertThat(names(planned.pods())).isEqualTo(names(made)).hasSize(replicas);
        assertThat(names(planned.services())).isEqualTo(names(madeServices));
        List<String> differences = new ArrayList<>();
        Map<String, Pod> madeByName = made.stream().collect(Collectors.toMap(pod -> pod.getMetadata().getName(), Function.identity()));
        for (Pod pod : planned.pods()) {
            ObjectDifferences.unaccepted(pod, madeByName.get(pod.getMetadata().getName()), ACCEPTED)
                    .forEach(difference -> differences.add("pod " + pod.getMetadata().getName() + " " + difference));
        }
        Map<String, Service> servicesByName = madeServices.stream()
                .collect(Collectors.toMap(service -> service.getMetadata().getName(), Function.identity()));
        for (Service service : planned.services()) {
            ObjectDifferences.unaccepted(ObjectDifferences.withPortsByName(JSON.valueToTree(service)),
                    ObjectDifferences.withPortsByName(JSON.valueToTree(servicesByName.get(service.getMetadata().getName()))), ACCEPTED)
                    .forEach(difference -> differences.add("service " + service.getMetadata().getName() + " " + difference));
        }
        assertThat(differences).as("differences of Muster's plan from the operator's %s (accepted: %s)", example, ACCEPTED).isEmpty();
    }

    private static List<Service> services(String job) {
        return client.services().inNamespace(TrainingOperatorOnRealControlPlane.NAMESPACE)
                .withLabels(Map.of(KubeflowApi.JOB_NAME_LABEL, job)).list().getItems();
    }

    private static List<String> names(List<? extends HasMetadata> objects) {
        return objects.stream().map(object -> object.getMetadata().getName()).sorted().toList();
    }

    /** What the operator made, beside the peers' logs, to read when the comparison fails. */
    private static void keep(String job, List<Pod> pods, List<Service> services) {
        Path file = OUT.resolve(job + ".operator.json");
        try {
            Files.createDirectories(OUT);
            ObjectNode made = JSON.createObjectNode();
            made.set("pods", JSON.valueToTree(pods));
            made.set("services", JSON.valueToTree(services));
            Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(made));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
