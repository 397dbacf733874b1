package dev.muster.bridge.kubeflow;

import static dev.muster.bridge.kubeflow.ObjectDifferences.Accepted.added;
import static java.util.Objects.requireNonNull;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import dev.muster.bridge.kubeflow.NativeReplicaPlanner.NativeReplicas;
import dev.muster.bridge.kubeflow.ObjectDifferences.Accepted;
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

/**
 * A training job's pods and Services as the real operator made them, beside native mode's plan of the
 * same job as the API server stores it, and their differences field by field, but for those of
 * {@link #ACCEPTED}: the one list of accepted differences of the native-mode comparisons.
 */
record OperatorReplicas(NativeReplicas planned, ImmutableList<Pod> pods, ImmutableList<Service> services, ImmutableList<String> differences) {
    /** Every difference accepted between Muster's plan and the operator's objects, each with its reason. */
    static final List<Accepted> ACCEPTED = List.of(
            added("metadata\\.(uid|resourceVersion|creationTimestamp|generation|managedFields.*)",
                    "the API server's, on every object it stores"),
            added("spec\\.nodeName", "the scheduler's binding: Muster binds the pods that fit"),
            added("spec\\.(dnsPolicy|enableServiceLinks|preemptionPolicy|priority|securityContext|terminationGracePeriodSeconds)",
                    "kube-apiserver's pod defaults (SetDefaults_PodSpec, priority admission)"),
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

    private static final Duration RUN = Duration.ofMinutes(3);
    private static final ObjectMapper JSON = new ObjectMapper();

    OperatorReplicas {
        requireNonNull(planned, "planned is null");
        pods = ImmutableList.copyOf(pods);
        services = ImmutableList.copyOf(services);
        differences = ImmutableList.copyOf(differences);
    }

    /**
     * Submits {@code manifest}, waits until the operator has made a pod and a Service per replica, keeps
     * them under {@code out} and compares them with native mode's plan for the operator's gang scheduler.
     */
    static OperatorReplicas made(KubernetesClient client, ObjectNode manifest, GangScheduling gang, Path out) {
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        TrainingKind kind = TestingJobs.kindOf(manifest);
        String name = manifest.path("metadata").path("name").asText();
        int replicas = TrainingJobReader.read(kind, manifest).job().totalReplicas();
        jobs.submit(manifest);
        await().atMost(RUN).until(() -> jobs.pods(name).size() == replicas && services(client, name).size() == replicas);
        List<Pod> pods = jobs.pods(name);
        List<Service> services = services(client, name);
        keep(out, name, pods, services);

        JsonNode stored = jobs.job(kind, name).orElseThrow();
        NativeReplicas planned = NativeReplicaPlanner.plan(NativeJobReader.read(kind, stored), gang);
        List<String> differences = new ArrayList<>();
        Map<String, Pod> podsByName = pods.stream().collect(Collectors.toMap(pod -> pod.getMetadata().getName(), Function.identity()));
        for (Pod pod : planned.pods()) {
            ObjectDifferences.unaccepted(pod, podsByName.get(pod.getMetadata().getName()), ACCEPTED)
                    .forEach(difference -> differences.add("pod " + pod.getMetadata().getName() + " " + difference));
        }
        Map<String, Service> servicesByName = services.stream()
                .collect(Collectors.toMap(service -> service.getMetadata().getName(), Function.identity()));
        for (Service service : planned.services()) {
            ObjectDifferences.unaccepted(ObjectDifferences.withPortsByName(JSON.valueToTree(service)),
                    ObjectDifferences.withPortsByName(JSON.valueToTree(servicesByName.get(service.getMetadata().getName()))), ACCEPTED)
                    .forEach(difference -> differences.add("service " + service.getMetadata().getName() + " " + difference));
        }
        return new OperatorReplicas(planned, ImmutableList.copyOf(pods), ImmutableList.copyOf(services), ImmutableList.copyOf(differences));
    }

    static List<String> names(List<? extends HasMetadata> objects) {
        return objects.stream().map(object -> object.getMetadata().getName()).sorted().toList();
    }

    private static List<Service> services(KubernetesClient client, String job) {
        return client.services().inNamespace(TrainingOperatorOnRealControlPlane.NAMESPACE)
                .withLabels(Map.of(KubeflowApi.JOB_NAME_LABEL, job)).list().getItems();
    }

    /** What the operator made, beside the peers' logs, to read when the comparison fails. */
    private static void keep(Path out, String job, List<Pod> pods, List<Service> services) {
        Path file = out.resolve(job + ".operator.json");
        try {
            Files.createDirectories(out);
            ObjectNode made = JSON.createObjectNode();
            made.set("pods", JSON.valueToTree(pods));
            made.set("services", JSON.valueToTree(services));
            Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(made));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
