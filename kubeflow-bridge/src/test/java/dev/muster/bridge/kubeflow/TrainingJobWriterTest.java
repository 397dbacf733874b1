package dev.muster.bridge.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.kubeflow.TrainingJobPlan.MirrorPodGroup;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.binding.RetryPolicy;
import dev.muster.runtime.informers.KubernetesResources;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Writing plans for the dist-mnist TFJob to a test API server: what is written, and that nothing is written twice. */
class TrainingJobWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NAME = "dist-mnist-for-e2e-test";

    private final TestingApiServer server = new TestingApiServer(TestingJobs.CRDS);
    private final KubernetesClient client = server.client();
    private final TrainingJobWriter writer = new TrainingJobWriter(client, EventRecorder.connect(client, RetryPolicy.DEFAULT,
            Clock.systemUTC(), TrainingJobWriter.COMPONENT), Clock.systemUTC());

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void badInputGetsAnEventPerProblemTheInvalidConditionBesideTheOperatorsAndASuspension() {
        // given: the job as the operator left it, with its Created condition (written through the status subresource, as the operator does)
        store(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", NAME));
        ObjectNode status = JSON.createObjectNode();
        status.putObject("status").putArray("conditions").addObject().put("type", "Created").put("status", "True");
        GenericKubernetesResource stored = client.genericKubernetesResources(TrainingKind.TFJOB.context()).inNamespace("default").withName(NAME)
                .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), status.toString());
        List<FieldProblem> problems = List.of(new FieldProblem("spec.tfReplicaSpecs.Worker.replicas", "-2 is negative"),
                new FieldProblem("spec.runPolicy.schedulingPolicy.queue", "queue 'nope' does not exist (known: default)"));

        // when
        writer.write(stored, read(stored), problems(problems));

        // then
        JsonNode written = JSON.valueToTree(get());
        assertThat(written.path("spec").path("runPolicy").path("suspend").asBoolean()).isTrue();
        assertThat(written.path("metadata").path("annotations").path(KubeflowApi.SUSPENDED_BY_MUSTER).asText())
                .isEqualTo("spec.tfReplicaSpecs.Worker.replicas");
        assertThat(written.path("status").path("conditions")).extracting(condition -> condition.path("type").asText())
                .containsExactly("Created", TrainingJobWriter.INVALID_CONDITION);
        assertThat(written.path("status").path("conditions").get(1).path("message").asText()).isEqualTo(
                "spec.tfReplicaSpecs.Worker.replicas: -2 is negative; spec.runPolicy.schedulingPolicy.queue: queue 'nope' does not exist (known: default)");
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .extracting(event -> event.getReason() + " " + event.getInvolvedObject().getKind() + " " + event.getMessage())
                .containsExactlyInAnyOrder("InvalidSpec TFJob spec.tfReplicaSpecs.Worker.replicas: -2 is negative",
                        "InvalidSpec TFJob spec.runPolicy.schedulingPolicy.queue: queue 'nope' does not exist (known: default)");
    }

    @Test
    void writingTheSameBadInputAgainWritesNothing() {
        GenericKubernetesResource stored = store(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", NAME));
        TrainingJobPlan plan = problems(List.of(new FieldProblem("spec.tfReplicaSpecs.PS.replicas", "-1 is negative")));
        writer.write(stored, read(stored), plan);
        long writes = server.requests("POST", "/events") + server.requests("PUT", "/tfjobs/") + server.requests("PATCH", "/tfjobs/");

        // when: the job as it is now, suspended and with the condition
        GenericKubernetesResource again = get();
        writer.write(again, read(again), plan);

        // then
        assertThat(server.requests("POST", "/events") + server.requests("PUT", "/tfjobs/") + server.requests("PATCH", "/tfjobs/"))
                .isEqualTo(writes);
        assertThat(writes).isEqualTo(3);
    }

    @Test
    void theMirrorIsWrittenOnceAndNamesTheJobAsItsOwner() {
        GenericKubernetesResource stored = store(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", NAME));
        TrainingJobPlan plan = mirror(new MirrorPodGroup(NAME, 4, "research", Optional.of("high"),
                JsonNodeFactory.instance.objectNode().put("cpu", "4")));

        writer.write(stored, read(stored), plan);
        long writes = server.requests("POST", "/podgroups") + server.requests("PATCH", "/podgroups");
        writer.write(stored, read(stored), plan);

        JsonNode podGroup = JSON.valueToTree(client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                .withName(NAME).get());
        assertThat(podGroup.path("spec")).isEqualTo(JSON.createObjectNode().put("minMember", 4).put("queue", "research")
                .put("priorityClassName", "high").set("minResources", JSON.createObjectNode().put("cpu", "4")));
        assertThat(podGroup.path("metadata").path("ownerReferences").get(0).path("kind").asText()).isEqualTo("TFJob");
        assertThat(podGroup.path("metadata").path("ownerReferences").get(0).path("uid").asText()).isEqualTo(stored.getMetadata().getUid());
        assertThat(server.requests("POST", "/podgroups") + server.requests("PATCH", "/podgroups")).isEqualTo(writes).isEqualTo(1);
    }

    @Test
    void aVolcanoPodGroupTheBridgeDidNotWriteIsLeftAlone() {
        GenericKubernetesResource stored = store(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", NAME));
        ObjectNode operators = JSON.createObjectNode().put("apiVersion", "scheduling.volcano.sh/v1beta1").put("kind", "PodGroup");
        operators.putObject("metadata").put("name", NAME).put("namespace", "default");
        operators.putObject("spec").put("minMember", 4).put("queue", "default");
        client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                .resource(JSON.convertValue(operators, GenericKubernetesResource.class)).create();

        writer.write(stored, read(stored), mirror(new MirrorPodGroup(NAME, 4, "research", Optional.empty(), JSON.createObjectNode())));

        assertThat(JSON.valueToTree(client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                .withName(NAME).get()).path("spec").path("queue").asText()).isEqualTo("default");
    }

    @Test
    void theDefaultTaskTopologyIsAddedToTheOperatorsPodGroupBesideItsOwnAnnotations() {
        GenericKubernetesResource stored = store(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", NAME));
        ObjectNode operators = JSON.createObjectNode().put("apiVersion", "scheduling.volcano.sh/v1beta1").put("kind", "PodGroup");
        operators.putObject("metadata").put("name", NAME).put("namespace", "default").putObject("annotations").put("team", "vision");
        operators.putObject("spec").put("minMember", 4).put("queue", "default");
        client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                .resource(JSON.convertValue(operators, GenericKubernetesResource.class)).create();

        writer.write(stored, read(stored), new TrainingJobPlan(ImmutableList.of(), false, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), ImmutableMap.of("volcano.sh/task-topology-affinity", "ps,worker")));

        JsonNode podGroup = JSON.valueToTree(client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                .withName(NAME).get());
        assertThat(podGroup.path("metadata").path("annotations")).isEqualTo(JSON.createObjectNode().put("team", "vision")
                .put("volcano.sh/task-topology-affinity", "ps,worker"));
        assertThat(podGroup.path("spec")).isEqualTo(operators.path("spec"));
    }

    private GenericKubernetesResource store(ObjectNode job) {
        return client.genericKubernetesResources(TrainingKind.TFJOB.context()).inNamespace("default")
                .resource(JSON.convertValue(job, GenericKubernetesResource.class)).create();
    }

    private GenericKubernetesResource get() {
        return client.genericKubernetesResources(TrainingKind.TFJOB.context()).inNamespace("default").withName(NAME).get();
    }

    private static TrainingJob read(GenericKubernetesResource job) {
        return TrainingJobReader.read(TrainingKind.TFJOB, JSON.valueToTree(job)).job();
    }

    private static TrainingJobPlan problems(List<FieldProblem> problems) {
        return new TrainingJobPlan(ImmutableList.copyOf(problems), false, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    private static TrainingJobPlan mirror(MirrorPodGroup mirror) {
        return new TrainingJobPlan(ImmutableList.of(), false, Optional.of(mirror), Optional.empty(), Optional.empty(), Optional.empty());
    }
}
