package dev.muster.bridge.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real {@code spark-submit} 4.2.0 in client mode: the driver runs in a child JVM on 127.0.0.1 and
 * Spark's own {@code ExecutorPodsAllocator} creates the executor pods on a real kube-apiserver, with
 * Muster's runtime the only scheduler. KWOK only fakes their status, so the executors never register
 * with the driver; what is checked is how they are grouped and bound. Three nodes of 4 cpu: each
 * executor asks for 2, so a node holds two and the cluster six.
 */
@WithRealControlPlane(nodes = 3, nodeCpu = "4", nodeMemory = "16Gi")
class SparkSubmitClientModeIT {
    private static final Duration CREATE = Duration.ofMinutes(2);
    private static final Duration BIND = Duration.ofSeconds(30);
    // the driver's JVM stops its SparkContext (which deletes the executors) in its own time; on 2 loaded cores
    // that took over 30 s twice, so the clean-up between tests waits longer than a bind may take
    private static final Duration CLEAN_UP = Duration.ofMinutes(3);
    private static SparkOnRealControlPlane spark;

    @BeforeAll
    static void startSpark(RealControlPlane controlPlane) throws InterruptedException {
        spark = SparkOnRealControlPlane.start(controlPlane);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.close();
        }
    }

    @AfterEach
    void executorsAndTheirGroupsAreGone(KubernetesClient client) {
        // Spark deletes its executors as the driver ends, and Muster's step the PodGroup it made
        await().atMost(CLEAN_UP).until(() -> client.pods().inAnyNamespace().withLabel("spark-role", "executor").list().getItems().isEmpty());
        await().atMost(CLEAN_UP).until(() -> client.genericKubernetesResources(KubernetesAccess.PODGROUPS).inAnyNamespace().list()
                .getItems().isEmpty());
    }

    @Test
    void executorsSparkCreatesAreGroupedAndBoundAsOneGang(KubernetesClient client) {
        // given
        String namespace = "client-gang";
        SparkOnRealControlPlane.createNamespace(client, namespace);

        // when
        SparkOnRealControlPlane.Submission driver = spark.submitClient("sum-client", executors(namespace, 3));
        try {
            // then: the executor side made the group Spark's executors name, for the executors alone
            List<Pod> executors = await().atMost(CREATE).until(() -> executors(client, namespace), pods -> pods.size() == 3);
            String group = executors.get(0).getMetadata().getAnnotations().get("scheduling.k8s.io/group-name");
            assertThat(executors).allSatisfy(pod -> {
                assertThat(pod.getMetadata().getAnnotations()).containsEntry("scheduling.k8s.io/group-name", group);
                assertThat(pod.getSpec().getSchedulerName()).isEqualTo("muster");
            });
            GenericKubernetesResource podGroup = client.genericKubernetesResources(KubernetesAccess.PODGROUPS).inNamespace(namespace)
                    .withName(group).get();
            assertThat(podGroup).as("PodGroup %s\n%s", group, driver.output()).isNotNull();
            Map<?, ?> spec = (Map<?, ?>) podGroup.getAdditionalProperties().get("spec");
            assertThat(spec.get("minMember")).isEqualTo(3);
            // 3 executors of 2 cpu and 1024 + 384 MiB
            assertThat((Map<?, ?>) spec.get("minResources")).isEqualTo(Map.of("cpu", "6", "memory", "4224Mi"));
            awaitOrDescribe(client, () -> bound(executors(client, namespace)) == 3, namespace);
            awaitStarted(driver);
        } finally {
            driver.stop();
        }
    }

    @Test
    void twoApplicationsAtOnceNeverHoldPartOfTheirExecutors(KubernetesClient client) {
        // given: room for six executors; two applications of four each, submitted together
        String first = "client-first";
        String second = "client-second";
        SparkOnRealControlPlane.createNamespace(client, first);
        SparkOnRealControlPlane.createNamespace(client, second);

        // when
        SparkOnRealControlPlane.Submission one = spark.submitClient("sum-first", executors(first, 4));
        SparkOnRealControlPlane.Submission two = spark.submitClient("sum-second", executors(second, 4));
        try {
            await().atMost(CREATE).until(() -> executors(client, first).size() == 4 && executors(client, second).size() == 4);

            // then: one application is bound whole; the other holds nothing, and keeps holding nothing
            awaitOrDescribe(client, () -> bound(executors(client, first)) + bound(executors(client, second)) == 4, first, second);
            await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15)).until(() ->
                    List.of(0, 4).contains(bound(executors(client, first))) && List.of(0, 4).contains(bound(executors(client, second)))
                            && bound(executors(client, first)) + bound(executors(client, second)) == 4);
            String running = bound(executors(client, first)) == 4 ? first : second;
            String waiting = running.equals(first) ? second : first;

            // and when the bound one's executors go, the waiting one is bound whole
            client.pods().inNamespace(running).withLabel("spark-role", "executor").delete();
            (running.equals(first) ? one : two).stop();
            awaitOrDescribe(client, () -> bound(executors(client, waiting)) == 4, waiting);
            awaitStarted(running.equals(first) ? two : one);
        } finally {
            one.stop();
            two.stop();
        }
    }

    /**
     * Waits until the driver's SparkContext has started. A driver stopped while it is still starting (its
     * scheduler backend waiting for executors to register, which KWOK's never do) ends without deleting
     * its executors ("Error initializing SparkContext", then exit): seen in a full run, where Muster bound
     * the gang 2 s after Spark created it. {@code maxRegisteredResourcesWaitingTime} is 2 s in these tests.
     */
    private static void awaitStarted(SparkOnRealControlPlane.Submission driver) {
        await().atMost(CREATE).until(() -> driver.output().contains("SchedulerBackend is ready for scheduling"));
    }

    /** Waits {@link #BIND} for {@code condition}; on timeout, fails with the pods and PodGroups of {@code namespaces}. */
    private static void awaitOrDescribe(KubernetesClient client, java.util.concurrent.Callable<Boolean> condition, String... namespaces) {
        try {
            await().atMost(BIND).until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            StringBuilder text = new StringBuilder("not within " + BIND + ":\n");
            for (Pod pod : client.pods().inAnyNamespace().list().getItems()) {
                text.append("pod ").append(pod.getMetadata().getNamespace()).append('/').append(pod.getMetadata().getName())
                        .append(" node=").append(pod.getSpec().getNodeName()).append(" phase=").append(pod.getStatus().getPhase())
                        .append(" deleting=").append(pod.getMetadata().getDeletionTimestamp() != null).append('\n');
            }
            for (String namespace : namespaces) {
                client.genericKubernetesResources(KubernetesAccess.PODGROUPS).inNamespace(namespace).list().getItems().forEach(group ->
                        text.append("podgroup ").append(namespace).append('/').append(group.getMetadata().getName()).append(' ')
                                .append(group.getAdditionalProperties().get("status")).append('\n'));
            }
            throw new AssertionError(text.append(spark.peerLogs()).toString(), e);
        }
    }

    private static Map<String, String> executors(String namespace, int count) {
        Map<String, String> confs = SparkOnRealControlPlane.withMusterStep(SparkOnRealControlPlane.baseConfs(namespace));
        confs.put("spark.executor.instances", Integer.toString(count));
        confs.put("spark.executor.cores", "2");
        // the driver starts 2 s after it asked for executors instead of 30 (KWOK's executors never register)
        confs.put("spark.scheduler.maxRegisteredResourcesWaitingTime", "2s");
        return confs;
    }

    private static List<Pod> executors(KubernetesClient client, String namespace) {
        return client.pods().inNamespace(namespace).withLabel("spark-role", "executor").list().getItems().stream()
                .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null).toList();
    }

    private static int bound(List<Pod> pods) {
        return (int) pods.stream().filter(pod -> pod.getSpec().getNodeName() != null).count();
    }
}
