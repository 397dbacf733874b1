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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real {@code spark-submit} 4.2.0 in cluster mode against a real kube-apiserver, with Muster's
 * runtime the only scheduler. KWOK runs no container, so the driver JVM never starts: what is checked
 * is what Spark's submission creates (the PodGroup, with server-side apply, and the driver pod) and
 * that Muster binds the driver.
 */
@WithRealControlPlane(nodes = 3, nodeCpu = "4", nodeMemory = "16Gi")
class SparkSubmitClusterModeIT {
    private static final Duration SUBMIT = Duration.ofMinutes(3);
    private static final Duration BIND = Duration.ofSeconds(60);
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

    @Test
    void driverIsBoundByMusterAndThePodGroupCarriesTheComputedMinResources(KubernetesClient client) throws InterruptedException {
        // given
        String namespace = "cluster-muster";
        SparkOnRealControlPlane.createNamespace(client, namespace);
        Map<String, String> confs = SparkOnRealControlPlane.withMusterStep(SparkOnRealControlPlane.baseConfs(namespace));
        confs.put("spark.executor.instances", "3");
        confs.put("spark.executor.memory", "2g");

        // when
        SparkOnRealControlPlane.Submission submission = spark.submitCluster("sum-muster", confs);

        // then
        assertThat(submission.await(SUBMIT)).as(submission.output()).isZero();
        Pod driver = driver(client, namespace);
        String appId = driver.getMetadata().getLabels().get("spark-app-selector");
        GenericKubernetesResource podGroup = podGroup(client, namespace, appId + "-podgroup");
        Map<?, ?> spec = (Map<?, ?>) podGroup.getAdditionalProperties().get("spec");
        assertThat(spec.get("minMember")).isEqualTo(1);
        // driver: 1 cpu, 512 MiB + the 384 MiB minimum overhead; 3 executors of 1 cpu, 2048 + 384 MiB
        assertThat((Map<?, ?>) spec.get("minResources")).isEqualTo(Map.of("cpu", "4", "memory", "8192Mi"));
        assertThat(podGroup.getMetadata().getAnnotations())
                .containsEntry(PodGroupManifest.EXPECTED_EXECUTORS, "3")
                .containsEntry(PodGroupManifest.GANG_EXECUTORS, "3");
        assertThat(podGroup.getMetadata().getOwnerReferences()).as("Spark owns the group by its driver pod")
                .anyMatch(owner -> owner.getKind().equals("Pod") && owner.getName().equals(driver.getMetadata().getName()));
        assertThat(driver.getMetadata().getAnnotations()).containsEntry("scheduling.k8s.io/group-name", appId + "-podgroup");
        assertThat(driver.getSpec().getSchedulerName()).isEqualTo("muster");
        await().atMost(BIND).until(() -> client.pods().inNamespace(namespace).withName(driver.getMetadata().getName()).get()
                .getSpec().getNodeName() != null);
    }

    @Test
    void sparksOwnVolcanoStepUnchangedStillWorks(KubernetesClient client) throws InterruptedException {
        // given
        String namespace = "cluster-volcano";
        SparkOnRealControlPlane.createNamespace(client, namespace);
        Map<String, String> confs = SparkOnRealControlPlane.baseConfs(namespace);
        confs.put("spark.kubernetes.driver.pod.featureSteps", "org.apache.spark.deploy.k8s.features.VolcanoFeatureStep");
        confs.put("spark.kubernetes.executor.pod.featureSteps", "org.apache.spark.deploy.k8s.features.VolcanoFeatureStep");

        // when
        SparkOnRealControlPlane.Submission submission = spark.submitCluster("sum-volcano", confs);

        // then
        assertThat(submission.await(SUBMIT)).as(submission.output()).isZero();
        Pod driver = driver(client, namespace);
        String appId = driver.getMetadata().getLabels().get("spark-app-selector");
        assertThat(podGroup(client, namespace, appId + "-podgroup")).isNotNull();
        assertThat(driver.getMetadata().getAnnotations()).containsEntry("scheduling.k8s.io/group-name", appId + "-podgroup");
        await().atMost(BIND).until(() -> client.pods().inNamespace(namespace).withName(driver.getMetadata().getName()).get()
                .getSpec().getNodeName() != null);
    }

    @Test
    void unknownQueueFailsTheSubmissionBeforeAnyPodExists(KubernetesClient client) throws InterruptedException {
        // given
        String namespace = "cluster-bad-queue";
        SparkOnRealControlPlane.createNamespace(client, namespace);
        Map<String, String> confs = SparkOnRealControlPlane.withMusterStep(SparkOnRealControlPlane.baseConfs(namespace));
        confs.put(MusterConf.QUEUE, "no-such-queue");

        // when
        SparkOnRealControlPlane.Submission submission = spark.submitCluster("sum-bad-queue", confs);

        // then
        assertThat(submission.await(SUBMIT)).as(submission.output()).isNotZero();
        assertThat(submission.output()).contains("spark.kubernetes.scheduler.muster.queue: no Volcano Queue 'no-such-queue' exists");
        assertThat(client.pods().inNamespace(namespace).list().getItems()).isEmpty();
        assertThat(client.genericKubernetesResources(KubernetesAccess.PODGROUPS).inNamespace(namespace).list().getItems()).isEmpty();
    }

    private static Pod driver(KubernetesClient client, String namespace) {
        List<Pod> drivers = client.pods().inNamespace(namespace).withLabel("spark-role", "driver").list().getItems();
        assertThat(drivers).as("driver pods in %s\n%s", namespace, spark.peerLogs()).hasSize(1);
        return drivers.get(0);
    }

    private static GenericKubernetesResource podGroup(KubernetesClient client, String namespace, String name) {
        GenericKubernetesResource podGroup = client.genericKubernetesResources(KubernetesAccess.PODGROUPS).inNamespace(namespace)
                .withName(name).get();
        assertThat(podGroup).as("PodGroup %s/%s", namespace, name).isNotNull();
        return podGroup;
    }
}
