package dev.muster.bridge.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.k8s.SparkPod;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The executor side, in the driver: in client mode no driver-side step has made a PodGroup, so the
 * first executor's step makes one holding the executors alone; an existing group is left as it is.
 */
class ExecutorSideTest {
    /** Each test its own namespace: the server's objects outlive a test. */
    private static final String NAMESPACE_KEY = "spark.kubernetes.namespace";

    private static TestingApiServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = new TestingApiServer();
        client = server.client();
        // a Spark application runs in a namespace that exists
        for (String namespace : List.of(SparkPods.NAMESPACE, "client-mode", "gang", "driver-ends", "unknown-queue")) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void firstExecutorCreatesTheGroupOfTheExecutorsAlone() {
        SparkConf conf = SparkPods.conf(Map.of("spark.submit.deployMode", "client", "spark.executor.instances", "3",
                "spark.executor.memory", "2g", MusterConf.QUEUE, "etl", NAMESPACE_KEY, "client-mode"));
        client.genericKubernetesResources(KubernetesAccess.QUEUES).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1").withKind("Queue").withNewMetadata().withName("etl").endMetadata()
                .build()).createOr(existing -> existing.update());

        SparkPod executor = executorStep(conf, "1");
        executorStep(conf, "2");

        GenericKubernetesResource podGroup = podGroup("client-mode");
        assertThat(executor.pod().getMetadata().getAnnotations())
                .containsEntry("scheduling.k8s.io/group-name", SparkPods.APP_ID + "-podgroup");
        assertThat(podGroup).isNotNull();
        Map<?, ?> spec = (Map<?, ?>) podGroup.getAdditionalProperties().get("spec");
        assertThat(spec.get("minMember")).isEqualTo(3);
        assertThat(spec.get("queue")).isEqualTo("etl");
        // 3 x (1 core, 2048 MiB + the 384 MiB minimum overhead)
        assertThat((Map<?, ?>) spec.get("minResources")).isEqualTo(Map.of("cpu", "3", "memory", "7296Mi"));
        assertThat(podGroup.getMetadata().getAnnotations()).containsEntry(PodGroupManifest.GANG_EXECUTORS, "3");
    }

    @Test
    void gangConfSetsTheExecutorGroupsMinMember() {
        SparkConf conf = SparkPods.conf(Map.of("spark.executor.instances", "4", ExecutorCount.GANG_KEY, "2", NAMESPACE_KEY, "gang"));

        executorStep(conf, "1");

        assertThat(((Map<?, ?>) podGroup("gang").getAdditionalProperties().get("spec")).get("minMember")).isEqualTo(2);
    }

    @Test
    void existingGroupIsLeftAsItIs() {
        client.genericKubernetesResources(KubernetesAccess.PODGROUPS).inNamespace(SparkPods.NAMESPACE)
                .resource(new GenericKubernetesResourceBuilder().withApiVersion("scheduling.volcano.sh/v1beta1").withKind("PodGroup")
                        .withNewMetadata().withName(SparkPods.APP_ID + "-podgroup").withNamespace(SparkPods.NAMESPACE).endMetadata()
                        .addToAdditionalProperties("spec", Map.of("minMember", 1, "minResources", Map.of("cpu", "9")))
                        .build())
                .createOr(existing -> existing.update());

        executorStep(SparkPods.conf(Map.of()), "1");
        // (the default namespace of SparkPods, where the group above was made)

        assertThat(((Map<?, ?>) podGroup(SparkPods.NAMESPACE).getAdditionalProperties().get("spec")).get("minResources")).isEqualTo(Map.of("cpu", "9"));
    }

    @Test
    void theGroupTheExecutorSideMadeIsDeletedWhenTheDriverEnds() {
        SparkConf conf = SparkPods.conf(Map.of(NAMESPACE_KEY, "driver-ends"));
        List<Runnable> atExit = new ArrayList<>();
        MusterFeatureStep first = new MusterFeatureStep(ExecutorSideTest::connect, atExit::add);
        first.init(SparkPods.executorConf(conf, "1"));
        first.configurePod(SparkPod.initialPod());
        MusterFeatureStep second = new MusterFeatureStep(ExecutorSideTest::connect, atExit::add);
        second.init(SparkPods.executorConf(conf, "2"));
        second.configurePod(SparkPod.initialPod());
        assertThat(podGroup("driver-ends")).isNotNull();

        atExit.forEach(Runnable::run);

        assertThat(atExit).as("only the step that made the group deletes it").hasSize(1);
        assertThat(podGroup("driver-ends")).isNull();
    }

    @Test
    void inClientModeAnUnknownQueueFailsTheFirstExecutorBeforeItsPodOrGroupExists() {
        SparkConf conf = SparkPods.conf(Map.of(NAMESPACE_KEY, "unknown-queue", MusterConf.QUEUE, "no-such-queue"));
        MusterFeatureStep step = new MusterFeatureStep(ExecutorSideTest::connect);
        step.init(SparkPods.executorConf(conf, "1"));

        assertThatThrownBy(() -> step.configurePod(SparkPod.initialPod()))
                .isInstanceOf(ConfProblem.class)
                .hasMessage(MusterConf.QUEUE + ": no Volcano Queue 'no-such-queue' exists in the cluster");
        assertThat(podGroup("unknown-queue")).isNull();
    }

    @Test
    void inClusterModeTheExecutorSideMakesNoApiCall() {
        MusterFeatureStep step = new MusterFeatureStep((sparkConf, namespace) -> {
            throw new AssertionError("the submission made the group; the driver needs no rights on PodGroups");
        });
        step.init(SparkPods.executorConf(SparkPods.conf(Map.of("spark.submit.deployMode", "cluster")), "1"));

        SparkPod executor = step.configurePod(SparkPod.initialPod());

        assertThat(executor.pod().getMetadata().getAnnotations())
                .containsEntry("scheduling.k8s.io/group-name", SparkPods.APP_ID + "-podgroup");
    }

    private static SparkPod executorStep(SparkConf conf, String executorId) {
        MusterFeatureStep step = new MusterFeatureStep(ExecutorSideTest::connect);
        step.init(SparkPods.executorConf(conf, executorId));
        return step.configurePod(SparkPod.initialPod());
    }

    private static KubernetesClient connect(SparkConf conf, String namespace) {
        // the step closes what it is given; the test's client stays open
        return new KubernetesClientBuilder().withConfig(client.getConfiguration()).build();
    }

    private static GenericKubernetesResource podGroup(String namespace) {
        return client.genericKubernetesResources(KubernetesAccess.PODGROUPS).inNamespace(namespace)
                .withName(SparkPods.APP_ID + "-podgroup").get();
    }
}
