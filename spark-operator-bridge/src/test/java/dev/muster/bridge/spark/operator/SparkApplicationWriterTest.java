package dev.muster.bridge.spark.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.spark.ConfMinResources;
import dev.muster.bridge.spark.operator.SparkApplicationPlan.PodGroupSpec;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.binding.RetryPolicy;
import dev.muster.runtime.informers.KubernetesResources;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Writing plans for the operator's examples to a test API server: what is written, and that nothing is written twice. */
class SparkApplicationWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ImmutableMap<String, String> ANNOTATIONS = ImmutableMap.of(ConfMinResources.EXPECTED_EXECUTORS, "2",
            ConfMinResources.GANG_EXECUTORS, "2");

    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();
    private final SparkApplicationWriter writer = new SparkApplicationWriter(client, EventRecorder.connect(client, RetryPolicy.DEFAULT,
            Clock.systemUTC(), SparkApplicationWriter.COMPONENT));

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theOperatorsGroupGetsTheComputedFieldsAndKeepsItsOwn() {
        // given: the operator's PodGroup as its volcano scheduler creates it
        SparkApplication application = application(TestingApplications.SPARK_PI_VOLCANO);
        client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default").resource(JSON.convertValue(
                podGroup("spark-spark-pi-volcano-pg", application), GenericKubernetesResource.class)).create();
        PodGroupSpec wanted = new PodGroupSpec("spark-spark-pi-volcano-pg", false, 1, ImmutableMap.of("cpu", "3", "memory", "2688Mi"),
                Optional.of("etl"), Optional.empty(), ANNOTATIONS);

        // when
        writer.write(application, new SparkApplicationPlan(ImmutableList.of(), Optional.of(wanted), Optional.empty()));

        // then
        JsonNode written = JSON.valueToTree(client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                .withName("spark-spark-pi-volcano-pg").get());
        assertThat(written.path("spec").path("minResources")).isEqualTo(JSON.valueToTree(ImmutableMap.of("cpu", "3", "memory", "2688Mi")));
        assertThat(written.path("spec").path("queue").asText()).isEqualTo("etl");
        assertThat(written.path("spec").path("minMember").asInt()).isEqualTo(1);
        assertThat(written.path("metadata").path("annotations").path(ConfMinResources.EXPECTED_EXECUTORS).asText()).isEqualTo("2");
        assertThat(written.path("metadata").path("ownerReferences").get(0).path("uid").asText()).isEqualTo("uid-volcano");
    }

    @Test
    void aMirrorIsCreatedOwnedByTheApplicationAndWritingTwiceChangesNothing() {
        // given
        SparkApplication application = application(TestingApplications.SPARK_PI_KUBE_SCHEDULER);
        PodGroupSpec wanted = new PodGroupSpec("spark-pi-kube-scheduler-pg", true, 1, ImmutableMap.of("cpu", "3", "memory", "2688Mi"),
                Optional.of("default"), Optional.of("batch"), ANNOTATIONS);
        SparkApplicationPlan plan = new SparkApplicationPlan(ImmutableList.of(), Optional.of(wanted), Optional.empty());

        // when
        writer.write(application, plan);
        String version = mirror().getMetadata().getResourceVersion();
        writer.write(application, plan);

        // then
        GenericKubernetesResource mirror = mirror();
        assertThat(mirror.getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(mirror.getMetadata().getLabels()).containsEntry(SparkOperatorApi.MIRROR_OF, "scheduling.x-k8s.io");
        assertThat(mirror.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getKind() + " " + owner.getName()).isEqualTo("SparkApplication spark-pi-kube-scheduler"));
        JsonNode spec = JSON.valueToTree(mirror).path("spec");
        assertThat(spec.path("queue").asText() + " " + spec.path("priorityClassName").asText() + " " + spec.path("minMember").asInt())
                .isEqualTo("default batch 1");
    }

    @Test
    void eachProblemAndReasonIsOneEventOnTheApplicationOnce() {
        // given
        SparkApplication application = application(TestingApplications.SPARK_PI_VOLCANO);
        SparkApplicationPlan plan = new SparkApplicationPlan(ImmutableList.of(new FieldProblem("spec.executor.memory", "bad")),
                Optional.empty(), Optional.of("Muster: waiting for room"));

        // when
        writer.write(application, plan);
        writer.write(application, plan);

        // then
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .extracting(event -> event.getType() + " " + event.getReason() + " " + event.getInvolvedObject().getKind() + "/"
                        + event.getInvolvedObject().getName() + " " + event.getMessage())
                .containsExactlyInAnyOrder("Warning InvalidSpec SparkApplication/spark-pi-volcano spec.executor.memory: bad",
                        "Warning Unschedulable SparkApplication/spark-pi-volcano Muster: waiting for room");
    }

    @Test
    void whatWasToldIsForgottenWithTheApplicationAndAnApplicationOfTheSameNameIsToldAgain() {
        // given: an application told it waits
        SparkApplication first = application(TestingApplications.SPARK_PI_VOLCANO);
        SparkApplicationPlan waiting = new SparkApplicationPlan(ImmutableList.of(), Optional.empty(), Optional.of("Muster: waiting for room"));
        writer.write(first, waiting);
        assertThat(writer.remembered()).isEqualTo(1);

        // when: it is gone, and one of the same name (another uid) waits for the same reason
        writer.forget("default", "spark-pi-volcano");
        assertThat(writer.remembered()).isZero();
        SparkApplication second = SparkApplicationReader.read(TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO, "default",
                "uid-second")).application();
        writer.write(second, waiting);
        writer.write(second, waiting);

        // then: each is told once
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .extracting(event -> event.getInvolvedObject().getUid() + " " + event.getMessage())
                .containsExactlyInAnyOrder("uid-volcano Muster: waiting for room", "uid-second Muster: waiting for room");
        assertThat(writer.remembered()).isEqualTo(1);
    }

    @Test
    void warningsAreEventsAndTheGroupIsStillWritten() {
        // given
        SparkApplication application = application(TestingApplications.SPARK_PI_VOLCANO);
        client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default").resource(JSON.convertValue(
                podGroup("spark-spark-pi-volcano-pg", application), GenericKubernetesResource.class)).create();
        PodGroupSpec wanted = new PodGroupSpec("spark-spark-pi-volcano-pg", false, 1, ImmutableMap.of("cpu", "3", "memory", "2688Mi"),
                Optional.empty(), Optional.empty(), ANNOTATIONS);
        SparkApplicationPlan plan = new SparkApplicationPlan(ImmutableList.of(), ImmutableList.of(new FieldProblem("spec.sparkConfigMap",
                "ConfigMap 'default/x' does not exist")), Optional.of(wanted), Optional.empty());

        // when
        writer.write(application, plan);
        writer.write(application, plan);

        // then
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .extracting(event -> event.getType() + " " + event.getReason() + " " + event.getMessage())
                .containsExactly("Warning SpecWarning spec.sparkConfigMap: ConfigMap 'default/x' does not exist");
        JsonNode written = JSON.valueToTree(client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                .withName("spark-spark-pi-volcano-pg").get());
        assertThat(written.path("spec").path("minResources")).isEqualTo(JSON.valueToTree(ImmutableMap.of("cpu", "3", "memory", "2688Mi")));
    }

    @Test
    void aScheduledRunsBadInputIsToldOnTheRunAndOnceOnTheScheduledApplicationByItsTemplateField() {
        // given: two runs of one ScheduledSparkApplication, as its operator makes them, whose template has a negative minExecutors
        ObjectNode first = scheduledRun("nightly-pi-1796200000000000000", "uid-run-1");
        ObjectNode second = scheduledRun("nightly-pi-1796200010000000000", "uid-run-2");

        // when
        for (ObjectNode run : java.util.List.of(first, second)) {
            SparkApplicationReader.Read read = SparkApplicationReader.read(run);
            writer.write(read.application(), SparkApplicationPlanner.plan(read, com.google.common.collect.ImmutableSet.of(),
                    Optional.of(PodGroupView.of(podGroup("spark-" + read.application().name() + "-pg", read.application()))),
                    Optional.empty()));
        }

        // then: each run is told; the ScheduledSparkApplication once, by its template's field, with the value
        String problem = "dynamicAllocation.minExecutors: spark.dynamicAllocation.minExecutors: -1 is negative; a count of executors is 0 or more";
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .extracting(event -> event.getReason() + " " + event.getInvolvedObject().getKind() + "/" + event.getInvolvedObject().getName()
                        + " " + event.getInvolvedObject().getUid() + " " + event.getMessage())
                .containsExactlyInAnyOrder(
                        "InvalidSpec SparkApplication/nightly-pi-1796200000000000000 uid-run-1 spec." + problem,
                        "InvalidSpec SparkApplication/nightly-pi-1796200010000000000 uid-run-2 spec." + problem,
                        "InvalidSpec ScheduledSparkApplication/nightly-pi uid-nightly spec.template." + problem
                                + " (in its run nightly-pi-1796200000000000000)");
    }

    /** A run of the ScheduledSparkApplication {@code nightly-pi}: the Volcano example's spec, its label and owner reference. */
    private static ObjectNode scheduledRun(String name, String uid) {
        ObjectNode run = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO, "default", uid);
        ObjectNode metadata = ((ObjectNode) run.path("metadata")).put("name", name);
        metadata.putObject("labels").put(SparkOperatorApi.SCHEDULED_APP_NAME_LABEL, "nightly-pi");
        metadata.putArray("ownerReferences").addObject().put("apiVersion", SparkOperatorApi.API_VERSION)
                .put("kind", SparkOperatorApi.SCHEDULED_KIND).put("name", "nightly-pi").put("uid", "uid-nightly").put("blockOwnerDeletion", true);
        TestingApplications.spec(run).putObject("dynamicAllocation").put("enabled", true).put("minExecutors", -1).put("maxExecutors", 4);
        return run;
    }

    private static SparkApplication application(String example) {
        return SparkApplicationReader.read(TestingApplications.example(example, "default", "uid-" + example.replace("spark-pi-", "")
                .replace(".yaml", ""))).application();
    }

    private GenericKubernetesResource mirror() {
        return client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                .withName("spark-pi-kube-scheduler-pg").get();
    }

    private static ObjectNode podGroup(String name, SparkApplication owner) {
        ObjectNode object = JSON.createObjectNode().put("apiVersion", "scheduling.volcano.sh/v1beta1").put("kind", "PodGroup");
        ObjectNode metadata = object.putObject("metadata").put("name", name).put("namespace", owner.namespace());
        metadata.putArray("ownerReferences").addObject().put("apiVersion", SparkOperatorApi.API_VERSION).put("kind", SparkOperatorApi.KIND)
                .put("name", owner.name()).put("uid", owner.uid()).put("controller", true);
        object.putObject("spec").put("minMember", 1).put("queue", "default").putObject("minResources").put("cpu", "2").put("memory", "1Gi");
        return object;
    }
}
