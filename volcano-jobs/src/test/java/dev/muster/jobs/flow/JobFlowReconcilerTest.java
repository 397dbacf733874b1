package dev.muster.jobs.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.common.collect.ImmutableList;
import dev.muster.jobs.JobPhase;
import dev.muster.jobs.JobStatus;
import dev.muster.jobs.TestingJobs;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.VolcanoJobReader;
import dev.muster.jobs.controller.PlanEvent;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The three-stage fixture: prepare (10m), then train (2h), then evaluate (15m). */
class JobFlowReconcilerTest {
    private static final JobFlowReconciler RECONCILER = new JobFlowReconciler();
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final Map<String, JobTemplate> templates = new LinkedHashMap<>();
    private JobFlow flow;

    JobFlowReconcilerTest() {
        for (JsonNode document : TestingJobs.fixture("jobflow-three-stages.yaml")) {
            if (document.path("kind").asText().equals("JobTemplate")) {
                JobTemplate template = JobFlowReader.readTemplate(document).orElseThrow();
                templates.put(template.name(), template);
            } else {
                flow = JobFlowReader.readFlow(document).orElseThrow();
            }
        }
    }

    /** The Job a plan creates, as the API server would hand it back in {@code phase}. */
    private static VolcanoJob created(JobFlowPlan plan, String name, JobPhase phase) {
        ObjectNode manifest = plan.jobsToCreate().stream().filter(job -> job.path("metadata").path("name").asText().equals(name))
                .findFirst().orElseThrow().deepCopy();
        manifest.with("metadata").put("creationTimestamp", T0.toString());
        VolcanoJob job = VolcanoJobReader.read(manifest).orElseThrow();
        return job.withStatus(JobStatus.NEW.transition(phase, "", "", T0));
    }

    private static VolcanoJob inPhase(VolcanoJob job, JobPhase phase) {
        return job.withStatus(job.status().transition(phase, "", "", T0.plusSeconds(60)));
    }

    @Test
    void onlyTheFirstStageStartsWithVolcanosLabelsAndTheDagAnnotations() {
        JobFlowPlan plan = RECONCILER.reconcile(flow, templates, List.of());

        assertThat(plan.jobNamesToCreate()).containsExactly("mnist-prepare");
        JsonNode metadata = plan.jobsToCreate().get(0).path("metadata");
        assertThat(metadata.path("labels").path("volcano.sh/createdByJobFlow").asText()).isEqualTo("default.mnist");
        assertThat(metadata.path("labels").path("volcano.sh/createdByJobTemplate").asText()).isEqualTo("default.prepare");
        assertThat(metadata.path("annotations").path("muster.dev/dag").asText()).isEqualTo("default/mnist");
        assertThat(metadata.path("annotations").path("muster.dev/dag-remaining-path").asText()).isEqualTo("8700");
        assertThat(metadata.path("ownerReferences").get(0).path("kind").asText()).isEqualTo("JobFlow");
        assertThat(plan.jobsToCreate().get(0).path("spec").path("tasks").get(0).path("name").asText()).isEqualTo("prepare");
        assertThat(plan.status().orElseThrow().phase()).isEqualTo("Pending");
        assertThat(plan.events()).extracting(PlanEvent::message).containsExactly("create a job named mnist-prepare!");
    }

    @Test
    void eachStageStartsOnceTheStageBeforeItCompleted() {
        VolcanoJob prepare = created(RECONCILER.reconcile(flow, templates, List.of()), "mnist-prepare", JobPhase.RUNNING);

        JobFlowPlan whileRunning = RECONCILER.reconcile(flow, templates, List.of(prepare));
        JobFlowPlan afterPrepare = RECONCILER.reconcile(flow, templates, List.of(inPhase(prepare, JobPhase.COMPLETED)));

        assertThat(whileRunning.jobsToCreate()).isEmpty();
        assertThat(whileRunning.status().orElseThrow().runningJobs()).containsExactly("mnist-prepare");
        assertThat(whileRunning.status().orElseThrow().phase()).isEqualTo("Running");
        assertThat(afterPrepare.jobNamesToCreate()).containsExactly("mnist-train");
        assertThat(afterPrepare.jobsToCreate().get(0).path("metadata").path("annotations").path("muster.dev/dag-remaining-path").asText())
                .isEqualTo("8100");
    }

    @Test
    void flowSucceedsWhenEveryStageCompletedAndDeletesItsJobsWhenAskedTo() {
        JobFlow deleting = new JobFlow(flow.metadata(), flow.flows(), true, statusWithPhase("Running"));
        List<VolcanoJob> jobs = new ArrayList<>();
        JobFlowPlan plan = RECONCILER.reconcile(deleting, templates, jobs);
        for (String stage : List.of("prepare", "train", "evaluate")) {
            jobs.add(created(plan, "mnist-" + stage, JobPhase.COMPLETED));
            plan = RECONCILER.reconcile(deleting, templates, jobs);
        }

        assertThat(plan.status().orElseThrow().phase()).isEqualTo("Succeed");
        assertThat(plan.status().orElseThrow().completedJobs()).containsExactly("mnist-evaluate", "mnist-prepare", "mnist-train");
        assertThat(plan.jobsToDelete()).containsExactly("mnist-evaluate", "mnist-prepare", "mnist-train");
    }

    @Test
    void failedStageStopsItsDescendantsWithAClearStatus() {
        VolcanoJob prepare = created(RECONCILER.reconcile(flow, templates, List.of()), "mnist-prepare", JobPhase.COMPLETED);
        VolcanoJob train = created(RECONCILER.reconcile(flow, templates, List.of(prepare)), "mnist-train", JobPhase.FAILED);

        JobFlowPlan plan = RECONCILER.reconcile(flow, templates, List.of(prepare, train));

        assertThat(plan.jobsToCreate()).isEmpty();
        JobFlowStatus status = plan.status().orElseThrow();
        assertThat(status.phase()).isEqualTo("Failed");
        assertThat(status.failedJobs()).containsExactly("mnist-train");
        assertThat(status.jobStatusList()).anySatisfy(entry -> {
            assertThat(entry.name()).isEqualTo("mnist-evaluate");
            assertThat(entry.state()).isEqualTo("Skipped");
            assertThat(entry.reason()).isEqualTo("train failed, needed succeeded");
        });
        assertThat(plan.events()).extracting(PlanEvent::message).containsExactly("mnist-evaluate will not run: train failed, needed succeeded");
        JobFlow reported = new JobFlow(flow.metadata(), flow.flows(), false, status);
        assertThat(RECONCILER.reconcile(reported, templates, List.of(prepare, train)).events()).isEmpty();
    }

    @Test
    void aFlowsPatchReachesTheJobItCreates() throws IOException {
        ObjectNode patch = (ObjectNode) new ObjectMapper(new YAMLFactory()).readTree("""
                minAvailable: 2
                runningEstimate: 1h
                tasks:
                - name: prepare
                  replicas: 2
                  template:
                    spec:
                      containers: [{name: prepare, image: busybox:1.37}]
                """);
        List<Flow> flows = new ArrayList<>(flow.flows());
        flows.set(0, new Flow("prepare", ImmutableList.of(), Optional.of(patch)));
        JobFlow patched = new JobFlow(flow.metadata(), ImmutableList.copyOf(flows), false, JobFlowStatus.NEW);

        JobFlowPlan plan = RECONCILER.reconcile(patched, templates, List.of());

        JsonNode spec = plan.jobsToCreate().get(0).path("spec");
        assertThat(spec.path("minAvailable").asInt()).isEqualTo(2);
        assertThat(spec.path("tasks").get(0).path("replicas").asInt()).isEqualTo(2);
        JsonNode container = spec.path("tasks").get(0).path("template").path("spec").path("containers").get(0);
        assertThat(container.path("image").asText()).isEqualTo("busybox:1.37");
        assertThat(container.path("command").get(0).asText()).isEqualTo("sh");
        assertThat(plan.jobsToCreate().get(0).path("metadata").path("annotations").path("muster.dev/dag-remaining-path").asText())
                .isEqualTo(Long.toString(Duration.ofHours(1).plusHours(2).plusMinutes(15).toSeconds()));
        assertThat(templates.get("prepare").specJson().path("minAvailable").asInt()).isEqualTo(1);
    }

    @Test
    void cycleFailsTheFlowNamingIt() {
        JobFlow cyclic = new JobFlow(flow.metadata(), ImmutableList.of(new Flow("a", ImmutableList.of("b")), new Flow("b", ImmutableList.of("a"))), false, JobFlowStatus.NEW);

        JobFlowPlan plan = RECONCILER.reconcile(cyclic, templates, List.of());

        JobFlowStatus status = plan.status().orElseThrow();
        assertThat(status.toJson().path("state")).hasToString("{\"phase\":\"Failed\",\"reason\":\"InvalidJobFlow\",\"message\":\"spec.flows: cycle: a -> b -> a\"}");
        assertThat(plan.events()).singleElement().satisfies(event -> {
            assertThat(event.reason()).isEqualTo("InvalidJobFlow");
            assertThat(event.message()).isEqualTo("spec.flows: cycle: a -> b -> a");
        });
        assertThat(plan.jobsToCreate()).isEmpty();
        JobFlow reported = new JobFlow(cyclic.metadata(), cyclic.flows(), false, status);
        assertThat(RECONCILER.reconcile(reported, templates, List.of()).events()).isEmpty();
    }

    @Test
    void aSelfEdgeAndAnUnknownTargetNameTheStageThatDeclaresThem() {
        JobFlow invalid = new JobFlow(flow.metadata(), ImmutableList.of(new Flow("a", ImmutableList.of()),
                new Flow("b", ImmutableList.of("b", "nowhere"))), false, JobFlowStatus.NEW);

        JobFlowPlan plan = RECONCILER.reconcile(invalid, templates, List.of());

        assertThat(plan.status().orElseThrow().toJson().path("state").path("message").asText())
                .contains("spec.flows[1].dependsOn.targets: self-edge on b")
                .contains("spec.flows[1].dependsOn.targets: edge nowhere -> b: unknown node 'nowhere'");
    }

    @Test
    void anInvalidFlowWhoseSpecIsFixedStartsAfresh() {
        JobFlow fixed = new JobFlow(flow.metadata(), flow.flows(), false, JobFlowStatus.invalid("cycle: a -> b -> a"));

        JobFlowPlan plan = RECONCILER.reconcile(fixed, templates, List.of());

        assertThat(plan.jobNamesToCreate()).containsExactly("mnist-prepare");
        assertThat(plan.status().orElseThrow().phase()).isEqualTo("Pending");
        assertThat(plan.status().orElseThrow().toJson().path("state").has("reason")).isFalse();
    }

    @Test
    void missingTemplateIsReportedAndRetried() {
        templates.remove("prepare");

        JobFlowPlan plan = RECONCILER.reconcile(flow, templates, List.of());

        assertThat(plan.jobsToCreate()).isEmpty();
        assertThat(plan.events()).extracting(PlanEvent::reason).containsExactly("TemplateNotFound");
        assertThat(plan.requeueAfter()).contains(Duration.ofSeconds(30));
        JobFlowStatus status = plan.status().orElseThrow();
        assertThat(status.phase()).isEqualTo("Pending");
        assertThat(status.reason()).isEqualTo("TemplateNotFound");
        assertThat(status.message()).isEqualTo("no JobTemplate default/prepare for flow prepare");
    }

    @Test
    void statusIsWrittenWithVolcanosFieldNames() {
        JobFlowStatus status = RECONCILER.reconcile(flow, templates, List.of()).status().orElseThrow();

        assertThat(status.toJson().path("state").path("phase").asText()).isEqualTo("Pending");
    }

    private static JobFlowStatus statusWithPhase(String phase) {
        return new JobFlowStatus(phase, ImmutableList.of(), ImmutableList.of(), ImmutableList.of(), ImmutableList.of(), ImmutableList.of(),
                ImmutableList.of(), ImmutableList.of(), "", "");
    }
}
