package dev.muster.bridge.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.k8s.KubernetesDriverConf;
import org.apache.spark.deploy.k8s.SparkPod;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/** The driver side's PodGroup: name, annotations, queue, priority and Spark's own Volcano templates. */
class PodGroupTest {
    private static TestingApiServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = new TestingApiServer();
        client = server.client();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void podGroupIsNamedAsSparksVolcanoStepNamesItAndTheDriverPointsAtIt() {
        SparkPod driver = SparkPods.driverPod(SparkPods.driverConf(SparkPods.conf(Map.of()), false));
        MusterFeatureStep step = step();
        step.init(SparkPods.driverConf(SparkPods.conf(Map.of()), false));

        SparkPod configured = step.configurePod(driver);
        GenericKubernetesResource podGroup = podGroup(step);

        assertThat(podGroup.getApiVersion()).isEqualTo("scheduling.volcano.sh/v1beta1");
        assertThat(podGroup.getKind()).isEqualTo("PodGroup");
        assertThat(podGroup.getMetadata().getName()).isEqualTo(SparkPods.APP_ID + "-podgroup");
        assertThat(podGroup.getMetadata().getNamespace()).isEqualTo(SparkPods.NAMESPACE);
        assertThat(configured.pod().getMetadata().getAnnotations())
                .containsEntry("scheduling.k8s.io/group-name", SparkPods.APP_ID + "-podgroup");
        assertThat(podGroup.getMetadata().getAnnotations())
                .containsEntry(PodGroupManifest.EXPECTED_EXECUTORS, "2")
                .containsEntry(PodGroupManifest.GANG_EXECUTORS, "2");
        assertThat(podGroup.getMetadata().getLabels()).containsEntry("spark-app-selector", SparkPods.APP_ID);
        assertThat(spec(podGroup)).doesNotContainKeys("queue", "priorityClassName");
    }

    @Test
    void sparksMemoryTemplateKeepsItsQueueAndMemoryAndGetsTheComputedCpu() throws URISyntaxException {
        givenQueue("queue-2u-3g");
        SparkConf conf = SparkPods.conf(Map.of(MusterConf.VOLCANO_TEMPLATE, template("driver-podgroup-template-memory-3g.yml")));
        MusterFeatureStep step = initialised(conf);

        Map<String, Object> spec = spec(podGroup(step));

        assertThat(spec.get("queue")).isEqualTo("queue-2u-3g");
        assertThat(spec.get("minMember")).isEqualTo(1);
        assertThat(spec).extractingByKey("minResources").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP).containsEntry("memory", "3Gi").containsEntry("cpu", "3");
    }

    @Test
    void confQueueAndPriorityClassWinOverTheTemplate() throws URISyntaxException {
        givenQueue("etl");
        SparkConf conf = SparkPods.conf(Map.of(MusterConf.TEMPLATE, template("high-priority-driver-podgroup-template.yml"),
                MusterConf.QUEUE, "etl", MusterConf.PRIORITY_CLASS, "batch-low"));

        Map<String, Object> spec = spec(podGroup(initialised(conf)));

        assertThat(spec.get("queue")).isEqualTo("etl");
        assertThat(spec.get("priorityClassName")).isEqualTo("batch-low");
    }

    @Test
    void templatePriorityClassIsKeptWhenTheConfHasNone() throws URISyntaxException {
        SparkConf conf = SparkPods.conf(Map.of(MusterConf.VOLCANO_TEMPLATE, template("high-priority-driver-podgroup-template.yml")));

        assertThat(spec(podGroup(initialised(conf))).get("priorityClassName")).isEqualTo("high");
    }

    @Test
    void unknownQueueFailsTheSubmissionBeforeAnyObjectIsReturned() {
        givenQueue("etl");
        MusterFeatureStep step = initialised(SparkPods.conf(Map.of(MusterConf.QUEUE, "etl-typo")));

        assertThatThrownBy(step::getAdditionalPreKubernetesResources)
                .isInstanceOf(ConfProblem.class)
                .hasMessage(MusterConf.QUEUE + ": no Volcano Queue 'etl-typo' exists in the cluster");
    }

    private MusterFeatureStep initialised(SparkConf conf) {
        KubernetesDriverConf driverConf = SparkPods.driverConf(conf, false);
        MusterFeatureStep step = step();
        step.init(driverConf);
        step.configurePod(SparkPods.driverPod(driverConf));
        return step;
    }

    private static MusterFeatureStep step() {
        // the step closes what it is given; the test's client stays open
        return new MusterFeatureStep((conf, namespace) -> new KubernetesClientBuilder().withConfig(client.getConfiguration()).build());
    }

    private static void givenQueue(String name) {
        client.genericKubernetesResources(KubernetesAccess.QUEUES).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1").withKind("Queue")
                .withNewMetadata().withName(name).endMetadata().build()).createOr(existing -> existing.update());
    }

    private static GenericKubernetesResource podGroup(MusterFeatureStep step) {
        List<HasMetadata> resources = CollectionConverters.asJava(step.getAdditionalPreKubernetesResources());
        assertThat(resources).hasSize(1);
        return (GenericKubernetesResource) resources.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource podGroup) {
        return (Map<String, Object>) podGroup.getAdditionalProperties().get("spec");
    }

    private static String template(String name) throws URISyntaxException {
        return Path.of(PodGroupTest.class.getResource("/volcano/" + name).toURI()).toString();
    }
}
