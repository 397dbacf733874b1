package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdmissionPlannerTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Map<String, Boolean> QUEUES = Map.of("default", false, "pipelines", false, "opted-in", true);

    @Test
    void aSuspendedWorkflowThatAsksWaitsForItsWidestStage() throws Exception {
        // when
        AdmissionPlan plan = AdmissionPlanner.plan(List.of(workflow("first", "admit: \"true\"", "suspend: true", "")), QUEUES);

        // then
        assertThat(plan.candidates()).singleElement().satisfies(job -> {
            assertThat(job.phase()).isEqualTo(PodGroupPhase.PENDING);
            assertThat(job.queue()).isEqualTo(new QueueName("pipelines"));
            assertThat(job.minResources()).contains(Resources.of(9000, 0));
            assertThat(job.created()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        });
        assertThat(plan.waiting().values()).extracting(request -> request.key().name()).containsExactly("first");
        assertThat(plan.released()).isEmpty();
    }

    @Test
    void anAdmittedWorkflowHoldsItsQueueForWhatItsPodsDoNotHoldYet() throws Exception {
        // given
        AdmissionRequest running = workflow("first", "admit: \"true\", muster.dev/admitted: \"2026-01-01T00:00:05Z\"", "", "");

        // when
        AdmissionPlan plan = AdmissionPlanner.plan(List.of(running), QUEUES);

        // then: what its pods already count for is taken off in the scheduler's snapshot, found by Argo's workflow label
        assertThat(plan.reservations()).singleElement().satisfies(reservation -> {
            assertThat(reservation.job().phase()).isEqualTo(PodGroupPhase.INQUEUE);
            assertThat(reservation.job().minResources()).contains(Resources.of(9000, 0));
            assertThat(reservation.taskLabels()).containsExactly(Map.entry("workflows.argoproj.io/workflow", "first"));
        });
        assertThat(plan.candidates()).isEmpty();
        assertThat(plan.waiting()).isEmpty();
    }

    @Test
    void aQueueThatOptsInAdmitsItsSuspendedWorkflowsUnlessOneSaysFalse() throws Exception {
        // when
        AdmissionPlan plan = AdmissionPlanner.plan(List.of(workflow("asks", "queue: opted-in", "suspend: true", ""),
                workflow("declines", "queue: opted-in, muster.dev/admit: \"false\"", "suspend: true", "")), QUEUES);

        // then
        assertThat(plan.waiting().values()).extracting(request -> request.key().name()).containsExactly("asks");
    }

    @Test
    void aSuspendedWorkflowThatDoesNotAskIsLeftAlone() throws Exception {
        // when
        AdmissionPlan plan = AdmissionPlanner.plan(List.of(workflow("approval", "queue: nope", "suspend: true", "")), QUEUES);

        // then
        assertThat(plan.candidates()).isEmpty();
        assertThat(plan.released()).isEmpty();
        assertThat(plan.ignored()).isEmpty();
    }

    @Test
    void aBadAdmitValueResumesTheWorkflowWithoutAdmissionNamingFieldAndValue() throws Exception {
        // when
        AdmissionPlan plan = AdmissionPlanner.plan(List.of(workflow("first", "admit: \"yes\"", "suspend: true", "")), QUEUES);

        // then
        assertThat(plan.candidates()).isEmpty();
        assertThat(plan.released()).extracting(AdmissionPlan.Notice::message).containsExactly(
                "metadata.annotations.muster.dev/admit: 'yes' is neither \"true\" nor \"false\"; resumed without admission");
    }

    @Test
    void aRequestThatIsNotAQuantityResumesTheWorkflowWithoutAdmissionNamingTemplateFieldAndValue() throws Exception {
        // given
        JsonNode tree = YAML.readTree("""
                apiVersion: argoproj.io/v1alpha1
                kind: Workflow
                metadata: {name: first, namespace: default, uid: u1, annotations: {muster.dev/admit: "true"}}
                spec:
                  suspend: true
                  entrypoint: worker
                  templates:
                  - name: worker
                    container: {image: busybox, resources: {requests: {cpu: lots}}}
                """);

        // when
        AdmissionPlan plan = AdmissionPlanner.plan(List.of(AdmissionReader.read(tree, WorkflowReader.read(tree).workflow().orElseThrow(),
                TemplateReader.read(tree))), QUEUES);

        // then
        assertThat(plan.released()).extracting(AdmissionPlan.Notice::message).containsExactly(
                "template 'worker': container.resources.requests.cpu: 'lots' is not a Kubernetes quantity; resumed without admission");
    }

    @Test
    void aQueueThatDoesNotExistResumesTheWorkflowWithoutAdmission() throws Exception {
        // when
        AdmissionPlan plan = AdmissionPlanner.plan(List.of(workflow("first", "admit: \"true\", muster.dev/queue: nope", "suspend: true", "")),
                QUEUES);

        // then
        assertThat(plan.released()).extracting(AdmissionPlan.Notice::message).containsExactly(
                "metadata.annotations.muster.dev/queue: queue 'nope' does not exist; resumed without admission");
    }

    @Test
    void aWorkflowThatAsksButWasNotSubmittedSuspendedRunsWithAWarning() throws Exception {
        // when
        AdmissionPlan plan = AdmissionPlanner.plan(List.of(workflow("first", "admit: \"true\"", "", "")), QUEUES);

        // then
        assertThat(plan.candidates()).isEmpty();
        assertThat(plan.ignored()).extracting(AdmissionPlan.Notice::message).containsExactly(
                "muster.dev/admit is \"true\" but the workflow was not submitted suspended (spec.suspend: true); it runs without admission");
    }

    @Test
    void aWorkflowSuspendedAfterItStartedIsNotResumed() throws Exception {
        // when: its user suspended it mid-run
        AdmissionPlan plan = AdmissionPlanner.plan(List.of(workflow("first", "admit: \"true\"", "suspend: true", """
                status:
                  phase: Running
                  nodes:
                    first-1: {id: first-1, name: "first[0].shards(0:a)", type: Pod, templateName: worker, phase: Succeeded}
                """)), QUEUES);

        // then
        assertThat(plan.candidates()).isEmpty();
        assertThat(plan.released()).isEmpty();
    }

    /** A workflow on queue {@code pipelines} (through its template's annotation) whose widest stage is three pods of 3 CPUs. */
    private static AdmissionRequest workflow(String name, String annotations, String suspend, String status) throws Exception {
        String yaml = """
                apiVersion: argoproj.io/v1alpha1
                kind: Workflow
                metadata:
                  name: %s
                  namespace: default
                  uid: uid-%s
                  creationTimestamp: "2026-01-01T00:00:00Z"
                  annotations: {muster.dev/%s}
                spec:
                  %s
                  entrypoint: main
                  templates:
                  - name: main
                    steps:
                    - - {name: shards, template: worker, withItems: [a, b, c]}
                  - name: worker
                    metadata:
                      annotations: {muster.dev/gang: "true", muster.dev/queue: pipelines}
                    container: {image: busybox, resources: {requests: {cpu: "3"}}}
                %s""".formatted(name, name, annotations, suspend, status);
        JsonNode tree = YAML.readTree(yaml);
        Workflow read = WorkflowReader.read(tree).workflow().orElseThrow();
        return AdmissionReader.read(tree, read, TemplateReader.read(tree));
    }
}
