package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.plugins.dag.DagAnnotations;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.binding.RetryPolicy;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The DAG hints of a real run's Workflow ({@code dag-fan-out}) written to a test API server. */
class DagHintsWriterTest {
    private static final String TRAIN_GROUP = "dag-fan-out-3209575842-worker";

    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();
    private final GangWriter writer = new GangWriter(client, EventRecorder.connect(client, RetryPolicy.DEFAULT, Clock.systemUTC(),
            GangWriter.COMPONENT), podGroup -> Optional.ofNullable(client.genericKubernetesResources(PodGroupManifests.POD_GROUPS)
                    .inNamespace(podGroup.namespace()).withName(podGroup.name()).get()));

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theFanOutsPodGroupIsCreatedWithItsHintsAndFollowsThemWhenTheyChange() {
        // given: worker estimated at 10 minutes
        ObjectNode object = withWorkerEstimate("10m");
        Workflow workflow = TestingWorkflows.read(object);
        DagPlan dag = DagPlanner.plan(workflow, TemplateReader.read(object), template -> Optional.empty());

        // when
        writer.write(workflow, GangPlanner.plan(workflow, Set.of("argo-gangs"), dag), List.of());

        // then
        assertThat(annotations(TRAIN_GROUP)).containsEntry(DagAnnotations.DAG, "default/dag-fan-out")
                .containsEntry(DagAnnotations.NODE, "dag-fan-out.train").containsEntry(DagAnnotations.REMAINING_PATH, "600");

        // when: the estimate changes
        ObjectNode changed = withWorkerEstimate("20m");
        writer.write(workflow, GangPlanner.plan(workflow, Set.of("argo-gangs"),
                DagPlanner.plan(workflow, TemplateReader.read(changed), template -> Optional.empty())), List.of());

        // then
        assertThat(annotations(TRAIN_GROUP)).containsEntry(DagAnnotations.REMAINING_PATH, "1200")
                .containsEntry(PodGroupManifests.TEMPLATE_ANNOTATION, "worker");
    }

    @Test
    void aPendingPodInNoGangGivesItsAutomaticPodGroupTheHintsOnce() {
        // given: prepare's pod, in no gang, named in the automatic PodGroup the scheduler made for it
        Workflow workflow = TestingWorkflows.read("dag-fan-out");
        DurationHistory history = new DurationHistory();
        history.record(workflow);
        DagPlan dag = DagPlanner.plan(workflow, TemplateReader.read(TestingWorkflows.load("dag-fan-out")),
                template -> history.duration(workflow, template));
        podGroup("podgroup-prepare");
        Pod prepare = pod("prepare", "dag-fan-out-2271192547", "podgroup-prepare");
        GangPlan plan = GangPlanner.plan(workflow, Set.of("argo-gangs"), dag);

        // when
        writer.writeDagHints(workflow, dag, plan, List.of(prepare));
        long patches = server.requests("PATCH", "/podgroups/");
        writer.writeDagHints(workflow, dag, plan, List.of(prepare));

        // then
        assertThat(annotations("podgroup-prepare")).containsEntry(DagAnnotations.NODE, "dag-fan-out.prepare")
                .containsEntry(DagAnnotations.REMAINING_PATH, "3");
        assertThat(server.requests("PATCH", "/podgroups/")).isEqualTo(patches).isEqualTo(1);
    }

    @Test
    void aBadDagIsAWarningEventOnTheWorkflowAndItsGangsStillForm() {
        // given
        ObjectNode object = TestingWorkflows.load("dag-fan-out");
        ((ObjectNode) object.path("spec").path("templates").get(0).path("dag").path("tasks").get(1)).put("depends", "prepare ||");
        Workflow workflow = TestingWorkflows.read(object);
        DagPlan dag = DagPlanner.plan(workflow, TemplateReader.read(object), template -> Optional.of(Duration.ofMinutes(1)));
        GangPlan plan = GangPlanner.plan(workflow, Set.of("argo-gangs"), dag);

        // when
        writer.write(workflow, plan, List.of());
        writer.writeDagHints(workflow, dag, plan, List.of());

        // then
        assertThat(client.v1().events().inNamespace("default").list().getItems()).singleElement().satisfies(event -> {
            assertThat(event.getType()).isEqualTo("Warning");
            assertThat(event.getReason()).isEqualTo(GangWriter.DAG_PROBLEM_REASON);
            assertThat(event.getInvolvedObject().getName()).isEqualTo("dag-fan-out");
            assertThat(event.getMessage()).isEqualTo("template 'main', task 'train': dag.tasks[1].depends: 'prepare ||': expected a task "
                    + "name, '!' or '(', found the end at column 11; it runs without DAG hints");
        });
        assertThat(annotations(TRAIN_GROUP)).doesNotContainKeys(DagAnnotations.DAG, DagAnnotations.REMAINING_PATH);
    }

    private static ObjectNode withWorkerEstimate(String estimate) {
        ObjectNode object = TestingWorkflows.load("dag-fan-out");
        for (JsonNode template : object.path("spec").path("templates")) {
            if (template.path("name").asText().equals("worker")) {
                ((ObjectNode) template.path("metadata").path("annotations")).put(ArgoTemplate.DURATION_ESTIMATE, estimate);
            } else if (template.path("name").asText().equals("step")) {
                ((ObjectNode) template).putObject("metadata").putObject("annotations").put(ArgoTemplate.DURATION_ESTIMATE, "1m");
            }
        }
        return object;
    }

    private Map<String, String> annotations(String podGroup) {
        return client.genericKubernetesResources(PodGroupManifests.POD_GROUPS).inNamespace("default").withName(podGroup).get()
                .getMetadata().getAnnotations();
    }

    private void podGroup(String name) {
        GenericKubernetesResource podGroup = new GenericKubernetesResourceBuilder().withApiVersion(SchedulingApi.VOLCANO_SCHEDULING)
                .withKind("PodGroup").withNewMetadata().withNamespace("default").withName(name).endMetadata()
                .addToAdditionalProperties("spec", Map.of("minMember", 1)).build();
        client.genericKubernetesResources(PodGroupManifests.POD_GROUPS).inNamespace("default").resource(podGroup).create();
    }

    private Pod pod(String name, String nodeId, String group) {
        return client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withNamespace("default").withName(name)
                .addToLabels(ArgoApi.WORKFLOW_LABEL, "dag-fan-out").addToAnnotations(ArgoApi.NODE_ID_ANNOTATION, nodeId)
                .addToAnnotations(SchedulingApi.GROUP_NAME_ANNOTATION, group).endMetadata()
                .withNewSpec().withSchedulerName("muster").addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
                .build()).create();
    }
}
