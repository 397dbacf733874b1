package dev.muster.runtime.informers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.cache.CacheSnapshot;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.cache.ManifestProblem;
import dev.muster.engine.cache.ManifestReader;
import dev.muster.engine.cache.ManifestResult;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The informer-fed cache reads the cluster as the manifest reader reads a dump of it. */
class ClusterCacheTest {
    private static final String CLUSTER = """
            apiVersion: scheduling.k8s.io/v1
            kind: PriorityClass
            metadata: {name: high}
            value: 1000
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: n1, labels: {zone: a}}
            status:
              allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
              conditions: [{type: Ready, status: "True"}]
            ---
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: Queue
            metadata: {name: ml}
            spec: {weight: 2, capability: {cpu: "6"}}
            ---
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: PodGroup
            metadata: {name: train, namespace: default}
            spec: {minMember: 2, queue: ml, priorityClassName: high}
            ---
            apiVersion: scheduling.x-k8s.io/v1alpha1
            kind: PodGroup
            metadata: {name: cosched, namespace: default}
            spec: {minMember: 1}
            ---
            apiVersion: topology.volcano.sh/v1alpha1
            kind: HyperNode
            metadata: {name: rack-a}
            spec:
              tier: 1
              members: [{type: Node, selector: {exactMatch: {name: n1}}}]
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: train-0, namespace: default, annotations: {scheduling.k8s.io/group-name: train}}
            spec:
              schedulerName: muster
              nodeName: n1
              containers: [{name: main, image: busybox, resources: {requests: {cpu: "2", memory: 1Gi}}}]
            status: {phase: Running}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: train-1, namespace: default, annotations: {scheduling.k8s.io/group-name: train}}
            spec:
              schedulerName: muster
              containers: [{name: main, image: busybox, resources: {requests: {cpu: "2", memory: 1Gi}}}]
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: bad, namespace: default}
            spec:
              schedulerName: muster
              containers: [{name: main, image: busybox, resources: {requests: {cpu: "-1"}}}]
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: daemon, namespace: kube-system}
            spec:
              nodeName: n1
              containers: [{name: main, image: busybox, resources: {requests: {cpu: "500m"}}}]
            status: {phase: Running}
            """;

    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();
    private final ClusterCache cache = new ClusterCache(Set.of("muster"), Clock.systemUTC());
    private final CacheInformers informers = new CacheInformers(client, cache);

    @AfterEach
    void stop() {
        informers.stop();
        server.close();
    }

    @Test
    void theSnapshotEqualsWhatTheManifestReaderReadsFromADumpOfTheSameObjects() throws InterruptedException {
        // given
        ClusterObjects.create(client, CLUSTER);

        assertThat(cache.unsyncedKinds()).contains("pods", "podgroups.scheduling.volcano.sh", "nodes");

        // when
        informers.start(Duration.ofSeconds(5));
        CacheSnapshot live = cache.snapshot();
        ManifestResult dumped = ManifestReader.live(Set.of("muster")).read("dump.yaml", dump());

        // then
        assertThat(cache.unsyncedKinds()).isEmpty();
        assertThat(live.cluster()).isEqualTo(dumped.snapshot());
        assertThat(live.cluster().jobs()).hasSize(2);
        assertThat(live.cluster().otherTasks()).hasSize(1);
        assertThat(live.cluster().hyperNodes()).hasSize(1);
        assertThat(describe(live.problems())).isEqualTo(describe(dumped.problems())).anyMatch(text -> text.contains("Pod default/bad"));
        assertThat(live.podGroups()).hasSize(2);
        assertThat(live.queues()).containsOnlyKeys(new dev.muster.engine.model.QueueName("ml"));
    }

    @Test
    void aBindInFlightReadsAsBoundUntilTheInformerShowsIt() throws InterruptedException {
        // given
        ClusterObjects.create(client, CLUSTER);
        informers.start(Duration.ofSeconds(5));
        TaskId pod = TaskId.parse("default/train-1");

        // when
        cache.assumeBound(pod, new NodeName("n1"));

        // then
        assertThat(task(pod).status()).isEqualTo(TaskStatus.BOUND);
        assertThat(task(pod).node()).contains(new NodeName("n1"));

        // when: the pod is bound in the API server
        client.pods().inNamespace("default").withName("train-1").edit(stored -> {
            stored.getSpec().setNodeName("n1");
            return stored;
        });

        // then
        await().atMost(Duration.ofSeconds(5)).until(() -> cache.bindsInFlight().isEmpty());
        assertThat(task(pod).status()).isEqualTo(TaskStatus.BOUND);
    }

    @Test
    void aForgottenBindReadsAsPendingAgain() throws InterruptedException {
        // given
        ClusterObjects.create(client, CLUSTER);
        informers.start(Duration.ofSeconds(5));
        TaskId pod = TaskId.parse("default/train-1");
        cache.assumeBound(pod, new NodeName("n1"));

        // when
        cache.forgetBind(pod);

        // then
        assertThat(task(pod).status()).isEqualTo(TaskStatus.PENDING);
    }

    private dev.muster.engine.model.Task task(TaskId id) {
        return cache.snapshot().cluster().jobs().values().stream()
                .flatMap(job -> job.tasks().stream())
                .filter(task -> task.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    /** What {@code kubectl get ... -o yaml} would give: every stored object, as YAML documents. */
    private String dump() {
        List<HasMetadata> objects = new ArrayList<>();
        objects.addAll(client.scheduling().v1().priorityClasses().list().getItems());
        objects.addAll(client.nodes().list().getItems());
        objects.addAll(client.pods().inAnyNamespace().list().getItems());
        for (String kind : List.of("scheduling.volcano.sh/v1beta1 Queue", "scheduling.volcano.sh/v1beta1 PodGroup",
                "scheduling.x-k8s.io/v1alpha1 PodGroup", "topology.volcano.sh/v1alpha1 HyperNode")) {
            objects.addAll(ClusterObjects.list(client, kind));
        }
        return objects.stream().map(object -> client.getKubernetesSerialization().asYaml(object))
                .collect(Collectors.joining("\n"));
    }

    private static List<String> describe(List<ManifestProblem> problems) {
        return problems.stream()
                .map(problem -> problem.kind() + " " + problem.name() + ": " + problem.field() + ": " + problem.message())
                .sorted()
                .toList();
    }
}
