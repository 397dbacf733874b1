package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.binding.RetryPolicy;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Writing a plan of a real run's Workflow to a test API server: groups named, pods let go, nothing written twice. */
class GangWriterTest {
    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();
    private final GangWriter writer = new GangWriter(client, EventRecorder.connect(client, RetryPolicy.DEFAULT, Clock.systemUTC(),
            GangWriter.COMPONENT), podGroup -> Optional.ofNullable(client.genericKubernetesResources(PodGroupManifests.POD_GROUPS)
                    .inNamespace(podGroup.namespace()).withName(podGroup.name()).get()));

    private static final boolean HELD = true;

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theFanOutsPodGroupIsCreatedAndItsHeldPodsNameIt() {
        // given: the DAG run, its pods as Argo made them
        Workflow workflow = TestingWorkflows.read("dag-fan-out");
        List<Pod> pods = List.of(pod("prepare", "dag-fan-out-2271192547", false),
                pod("train-x", "dag-fan-out-3075465614", HELD),
                pod("train-y", "dag-fan-out-2967293498", HELD));

        // when
        writer.write(workflow, GangPlanner.plan(workflow, Set.of("argo-gangs")), pods);

        // then
        GenericKubernetesResource podGroup = client.genericKubernetesResources(PodGroupManifests.POD_GROUPS).inNamespace("default")
                .withName("dag-fan-out-3209575842-worker").get();
        assertThat(podGroup.getAdditionalProperties().get("spec")).isEqualTo(Map.of("minMember", 2, "queue", "argo-gangs"));
        assertThat(podGroup.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(workflow.uid()));
        assertThat(group("train-x")).contains("dag-fan-out-3209575842-worker");
        assertThat(group("train-y")).contains("dag-fan-out-3209575842-worker");
        assertThat(group("prepare")).isEmpty();
    }

    @Test
    void writingThePlanAgainWritesNothing() {
        // given
        Workflow workflow = TestingWorkflows.read("dag-fan-out");
        pod("train-x", "dag-fan-out-3075465614", HELD);
        writer.write(workflow, GangPlanner.plan(workflow, Set.of("argo-gangs")), List.of(get("train-x")));
        long writes = server.requests("POST", "/podgroups") + server.requests("PATCH", "/pods/");

        // when
        writer.write(workflow, GangPlanner.plan(workflow, Set.of("argo-gangs")), List.of(get("train-x")));

        // then
        assertThat(server.requests("POST", "/podgroups") + server.requests("PATCH", "/pods/")).isEqualTo(writes);
        assertThat(writes).isEqualTo(2);
    }

    @Test
    void aGroupMadeWithoutResourcesGetsThemAndIsThenLeftAlone() {
        // given: the fan-out's group as a bridge that did not read templates made it
        ObjectNode object = TestingWorkflows.load("dag-fan-out");
        Workflow workflow = TestingWorkflows.read(object);
        pod("train-x", "dag-fan-out-3075465614", HELD);
        writer.write(workflow, GangPlanner.plan(workflow, Set.of("argo-gangs")), List.of(get("train-x")));

        // when: the plan with the templates' requests (1 cpu a pod, 2 members) is written, twice
        GangPlan plan = GangPlanner.plan(workflow, Set.of("argo-gangs"), DagPlan.NONE, TemplateReader.read(object).templates());
        writer.write(workflow, plan, List.of(get("train-x")));
        long patches = server.requests("PATCH", "/podgroups/");
        writer.write(workflow, plan, List.of(get("train-x")));

        // then
        GenericKubernetesResource podGroup = client.genericKubernetesResources(PodGroupManifests.POD_GROUPS).inNamespace("default")
                .withName("dag-fan-out-3209575842-worker").get();
        assertThat(podGroup.getAdditionalProperties().get("spec"))
                .isEqualTo(Map.of("minMember", 2, "minResources", Map.of("cpu", "2"), "queue", "argo-gangs"));
        assertThat(patches).isEqualTo(1);
        assertThat(server.requests("PATCH", "/podgroups/")).isEqualTo(patches);
    }

    @Test
    void aHeldPodInNoGangIsLetGoAndTheProblemIsAWarningEvent() {
        // given: a min-available the fan-out cannot meet
        Workflow workflow = TestingWorkflows.read(TestingWorkflows.withAnnotations("dag-fan-out", "worker",
                Map.of(GangAnnotations.GANG, "true", GangAnnotations.MIN_AVAILABLE, "3")));
        pod("train-x", "dag-fan-out-3075465614", HELD);

        // when
        writer.write(workflow, GangPlanner.plan(workflow, Set.of()), List.of(get("train-x")));

        // then
        assertThat(group("train-x")).isEmpty();
        assertThat(get("train-x").getMetadata().getAnnotations()).containsEntry(GangAnnotations.GANG, "false");
        assertThat(client.v1().events().inNamespace("default").list().getItems()).singleElement().satisfies(event -> {
            assertThat(event.getType()).isEqualTo("Warning");
            assertThat(event.getInvolvedObject().getName()).isEqualTo("dag-fan-out");
            assertThat(event.getMessage()).isEqualTo("template 'worker': metadata.annotations.muster.dev/min-available: '3' exceeds the 2 "
                    + "members of fan-out dag-fan-out.train; it runs without gang semantics");
        });
    }

    private Pod pod(String name, String nodeId, boolean held) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withNamespace("default").withName(name)
                .addToLabels(ArgoApi.WORKFLOW_LABEL, "dag-fan-out").addToAnnotations(ArgoApi.NODE_ID_ANNOTATION, nodeId).endMetadata()
                .withNewSpec().withSchedulerName("muster").addNewContainer().withName("main").withImage("busybox").endContainer().endSpec();
        if (held) {
            // as Argo creates the pod of a gang template: the template's annotation, no group yet
            pod.editMetadata().addToAnnotations(GangAnnotations.GANG, "true").endMetadata();
        }
        return client.pods().inNamespace("default").resource(pod.build()).create();
    }

    private Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    private Optional<String> group(String name) {
        return Optional.ofNullable(get(name).getMetadata().getAnnotations().get(SchedulingApi.GROUP_NAME_ANNOTATION));
    }
}
