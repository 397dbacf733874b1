package dev.muster.cli;

import static dev.muster.cli.ArgoObjects.ended;
import static dev.muster.cli.ArgoObjects.phase;
import static dev.muster.cli.ArgoObjects.pods;
import static dev.muster.cli.ArgoObjects.started;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Argo's own example workflows (v4.0.5's {@code examples/}, copied unchanged into {@code argo-integration}'s test
 * resources) run to Succeeded under Muster with the real workflow controller on {@code muster up --peer argo}, on the
 * embedded API server and on a real kube-apiserver: a container template, sequential and parallel steps, a DAG diamond
 * with {@code depends}, loops over {@code withItems} and {@code withParam}, the workflow-level {@code podMetadata} and a
 * {@code podSpecPatch}; and the examples with fan-outs (the parallel steps, the {@code withItems} and the
 * {@code withParam} loops) again with the fanned-out template annotated {@code muster.dev/gang}, each fan-out then one
 * PodGroup bound whole. Each workflow is submitted as written, with one addition: a workflow-level
 * {@code podMetadata} annotation {@code muster.dev/duration} for the simulated kubelet, which ends each pod after it
 * (no Argo executor runs in a simulated container, so the controller reads each pod's phase and exit codes).
 *
 * <p>And Volcano's own Argo example ({@code volcano-examples/20-job-DAG.yaml}): a DAG diamond of resource templates,
 * each creating a Volcano Job and waiting for {@code status.state.phase = Completed}. Their pods run Argo's real executor
 * ({@code argoexec}, as local processes of the simulated kubelet), which creates each Job; Muster schedules the Job's
 * pods and Muster's Job controller completes it. Its one addition is a {@code muster.dev/duration} on the Job's pod
 * template, inside the manifest, for the simulated kubelet.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ArgoExamplesOnMusterUpTest {
    private static final Duration WAIT = Duration.ofSeconds(240);
    private static final Path EXAMPLES = Path.of("..", "argo-integration", "src", "test", "resources", "argo-examples");
    private static final Path VOLCANO_EXAMPLES = Path.of("..", "argo-integration", "src", "test", "resources", "volcano-examples");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NODE_NAME = "workflows.argoproj.io/node-name";
    private static final ResourceDefinitionContext WORKFLOW_TASK_RESULTS = new ResourceDefinitionContext.Builder()
            .withGroup("argoproj.io").withVersion("v1alpha1").withKind("WorkflowTaskResult").withPlural("workflowtaskresults")
            .withNamespaced(true).build();
    /** The examples with a fan-out (a step group or a loop), and the template each fans out. */
    private static final Map<String, String> FANNED_OUT_TEMPLATES = Map.of("loops.yaml", "print-message", "steps.yaml", "print-message",
            "loops-param-argument.yaml", "cat-os-release");
    private static final List<String> AS_WRITTEN = List.of("hello-world.yaml", "steps.yaml", "dag-diamond.yaml", "loops.yaml",
            "loops-param-argument.yaml", "pod-metadata-wf-field.yaml", "pod-spec-patch.yaml");

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(WAIT);

    @ParameterizedTest(name = "--apiserver {0}")
    @ValueSource(strings = {"embedded", "real"})
    void argosExamplesRunToSucceededUnderMuster(String apiServer) throws Exception {
        // given: muster up with two nodes of 8 CPUs, and Argo's controller watching it
        KubernetesClient client = up.start(directory, "--apiserver", apiServer, "--nodes", "2:cpu=8,memory=32Gi", "--peer", "argo");

        // when: every example is submitted, and those with fan-outs once more with the fanned-out template a gang
        Map<String, String> names = new LinkedHashMap<>();
        for (String example : AS_WRITTEN) {
            names.put(example, submit(client, example(example)));
        }
        Map<String, String> gangs = new LinkedHashMap<>();
        for (Map.Entry<String, String> fanOut : FANNED_OUT_TEMPLATES.entrySet()) {
            gangs.put(fanOut.getKey(), submit(client, annotatedGang(fanOut.getKey(), fanOut.getValue())));
        }
        // and Volcano's example, with the service account Argo's installation makes, which it names
        client.serviceAccounts().inNamespace("default").resource(new ServiceAccountBuilder().withNewMetadata().withName("argo")
                .endMetadata().build()).create();
        String volcanoDag = submit(client, volcanoExample("20-job-DAG.yaml"));

        // then: every one succeeds
        List<String> all = Stream.of(names.values().stream(), gangs.values().stream(), Stream.of(volcanoDag)).flatMap(stream -> stream).toList();
        await().atMost(WAIT).untilAsserted(() -> assertThat(all.stream().collect(Collectors.toMap(name -> name, name -> phase(client, name))))
                .as("the workflows' phases (muster up's stdout names the controller's log)")
                .allSatisfy((name, phase) -> assertThat(phase).as(name).isEqualTo("Succeeded")));
        // each pod bound to a node by Muster and ended Succeeded, as many as Argo's nodes say
        Map<String, Integer> podCounts = Map.of("hello-world.yaml", 1, "steps.yaml", 3, "dag-diamond.yaml", 4, "loops.yaml", 2,
                "loops-param-argument.yaml", 4, "pod-metadata-wf-field.yaml", 1, "pod-spec-patch.yaml", 1);
        for (Map.Entry<String, String> example : names.entrySet()) {
            assertThat(pods(client, example.getValue())).as(example.getKey()).hasSize(podCounts.get(example.getKey())).allSatisfy(pod -> {
                assertThat(pod.getSpec().getNodeName()).isNotEmpty();
                assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
            });
        }
        // the diamond's D started only after B and C ended, and B and C after A
        Map<String, Pod> diamond = pods(client, names.get("dag-diamond.yaml")).stream()
                .collect(Collectors.toMap(ArgoExamplesOnMusterUpTest::task, pod -> pod));
        assertThat(started(diamond.get("D"))).isAfterOrEqualTo(ended(diamond.get("B")))
                .isAfterOrEqualTo(ended(diamond.get("C")));
        assertThat(started(diamond.get("B"))).isAfterOrEqualTo(ended(diamond.get("A")));
        // the workflow-level podMetadata reached the pod, and so did the podSpecPatch
        assertThat(pods(client, names.get("pod-metadata-wf-field.yaml"))).singleElement().satisfies(pod -> {
            assertThat(pod.getMetadata().getLabels()).containsEntry("app", "print-message").containsEntry("tier", "demo");
            assertThat(pod.getMetadata().getAnnotations()).containsEntry("iam.amazonaws.com/role", "role-arn");
        });
        assertThat(pods(client, names.get("pod-spec-patch.yaml"))).singleElement().satisfies(pod -> assertThat(pod.getSpec().getContainers())
                .filteredOn(container -> container.getName().equals("main")).singleElement()
                .satisfies(main -> assertThat(main.getResources().getLimits().get("cpu").toString()).isEqualTo("100m")));
        // each annotated fan-out was one PodGroup of its pods, bound whole: all its pods started before any ended
        assertThat(gangSizes(client, gangs.get("loops.yaml"))).containsExactly(2);
        assertThat(gangSizes(client, gangs.get("steps.yaml"))).containsExactlyInAnyOrder(1, 2);
        assertThat(gangSizes(client, gangs.get("loops-param-argument.yaml"))).containsExactly(4);
        volcanoJobsRanUnderMuster(client, volcanoDag);
    }

    /** The example with its fanned-out template annotated {@code muster.dev/gang}, under a name of its own. */
    private static ObjectNode annotatedGang(String file, String template) throws Exception {
        ObjectNode gang = example(file);
        ((ObjectNode) gang.path("metadata")).put("generateName", file.replace(".yaml", "") + "-gang-");
        boolean found = false;
        for (JsonNode candidate : gang.path("spec").path("templates")) {
            if (candidate.path("name").asText().equals(template)) {
                ((ObjectNode) candidate).with("metadata").with("annotations").put("muster.dev/gang", "true");
                found = true;
            }
        }
        assertThat(found).as("%s has a template %s", file, template).isTrue();
        return gang;
    }

    /**
     * The sizes of the workflow's PodGroups, each checked to be its pods' one group, of {@code minMember} their number, and
     * bound whole: its last pod started no later than its first ended.
     */
    private static List<Integer> gangSizes(KubernetesClient client, String workflow) {
        Map<String, List<Pod>> byGroup = pods(client, workflow).stream()
                .collect(Collectors.groupingBy(pod -> pod.getMetadata().getAnnotations().getOrDefault(SchedulingApi.GROUP_NAME_ANNOTATION, "")));
        assertThat(byGroup).as("%s's pods by PodGroup", workflow).doesNotContainKey("");
        byGroup.forEach((group, members) -> {
            GenericKubernetesResource podGroup = client.genericKubernetesResources(VolcanoObjects.POD_GROUPS).inNamespace("default")
                    .withName(group).get();
            assertThat(podGroup).as("PodGroup %s", group).isNotNull();
            assertThat(podGroup.<Object>get("spec", "minMember")).as("PodGroup %s's minMember", group).isEqualTo(members.size());
            Instant lastStart = members.stream().map(ArgoObjects::started).max(Instant::compareTo).orElseThrow();
            Instant firstEnd = members.stream().map(ArgoObjects::ended).min(Instant::compareTo).orElseThrow();
            assertThat(lastStart).as("PodGroup %s: its last pod's start against its first pod's end", group).isBeforeOrEqualTo(firstEnd);
        });
        return byGroup.values().stream().map(List::size).toList();
    }

    /**
     * Argo's executor made one Volcano Job per task of the diamond and reported through Argo's own WorkflowTaskResult;
     * Muster bound the Jobs' pods and completed the Jobs; D's Job was made only after B's and C's pods ended.
     */
    private static void volcanoJobsRanUnderMuster(KubernetesClient client, String workflow) {
        List<Pod> executorPods = pods(client, workflow);
        assertThat(executorPods).as("the resource templates' pods").hasSize(4).allSatisfy(pod -> {
            assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
            assertThat(pod.getStatus().getContainerStatuses()).filteredOn(status -> status.getName().equals("main")).singleElement()
                    .satisfies(main -> assertThat(main.getState().getTerminated().getExitCode()).isZero());
        });
        assertThat(client.genericKubernetesResources(WORKFLOW_TASK_RESULTS).inNamespace("default")
                .withLabel(ArgoObjects.WORKFLOW_LABEL, workflow).list().getItems())
                .as("Argo's executor reports its outputs in a WorkflowTaskResult per node").hasSize(4)
                .allSatisfy(result -> assertThat(result.getMetadata().getLabels())
                        .containsEntry("workflows.argoproj.io/report-outputs-completed", "true"));
        Map<String, GenericKubernetesResource> jobs = client.genericKubernetesResources(VolcanoObjects.JOBS).inNamespace("default").list()
                .getItems().stream().filter(job -> job.getMetadata().getOwnerReferences().stream().anyMatch(owner -> owner.getName().equals(workflow)))
                .collect(Collectors.toMap(job -> job.getMetadata().getGenerateName(), job -> job));
        assertThat(jobs).as("the Volcano Jobs the executor made").containsOnlyKeys("dag-job-aaa-", "dag-job-bbb-", "dag-job-ccc-", "dag-job-ddd-")
                .allSatisfy((name, job) -> assertThat(job.<Object>get("status", "state", "phase")).as(name).isEqualTo("Completed"));
        Map<String, List<Pod>> jobPods = jobs.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                job -> client.pods().inNamespace("default").withLabel(SchedulingApi.JOB_NAME, job.getValue().getMetadata().getName()).list()
                        .getItems()));
        assertThat(jobPods).allSatisfy((name, jobPodList) -> assertThat(jobPodList).as(name).hasSize(2).allSatisfy(pod -> {
            assertThat(pod.getSpec().getSchedulerName()).isEqualTo("volcano");
            assertThat(pod.getSpec().getNodeName()).isNotEmpty();
            assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
        }));
        Instant madeD = Instant.parse(jobs.get("dag-job-ddd-").getMetadata().getCreationTimestamp());
        Stream.of("dag-job-bbb-", "dag-job-ccc-").flatMap(name -> jobPods.get(name).stream())
                .forEach(pod -> assertThat(madeD).isAfterOrEqualTo(ended(pod).truncatedTo(ChronoUnit.SECONDS)));
    }

    /**
     * Volcano's example as written, with the simulated kubelet's duration added to its Job's pod template inside the
     * resource template's manifest (the Argo parameters in it, {@code {{...}}}, stay as they are).
     */
    private static ObjectNode volcanoExample(String file) throws Exception {
        ObjectNode workflow = JSON.valueToTree(Serialization.unmarshal(Files.readString(VOLCANO_EXAMPLES.resolve(file)),
                GenericKubernetesResource.class));
        for (JsonNode template : workflow.path("spec").path("templates")) {
            if (template.has("resource")) {
                ObjectNode resource = (ObjectNode) template.path("resource");
                ObjectNode manifest = JSON.valueToTree(Serialization.unmarshal(resource.path("manifest").asText(), Map.class));
                for (JsonNode task : manifest.path("spec").path("tasks")) {
                    ((ObjectNode) task).with("template").with("metadata").with("annotations").put(SchedulingApi.DURATION_ANNOTATION, "2s");
                }
                resource.put("manifest", Serialization.asYaml(manifest));
            }
        }
        return workflow;
    }

    /** The example as Argo wrote it, with the simulated kubelet's duration added to its workflow-level pod metadata. */
    private static ObjectNode example(String file) throws Exception {
        ObjectNode workflow = JSON.valueToTree(Serialization.unmarshal(Files.readString(EXAMPLES.resolve(file)), GenericKubernetesResource.class));
        ((ObjectNode) workflow.path("spec")).with("podMetadata").with("annotations").put(SchedulingApi.DURATION_ANNOTATION, "2s");
        return workflow;
    }

    private static String submit(KubernetesClient client, ObjectNode workflow) {
        return client.genericKubernetesResources(ArgoObjects.WORKFLOWS).inNamespace("default")
                .resource(JSON.convertValue(workflow, GenericKubernetesResource.class)).create().getMetadata().getName();
    }

    /** The DAG task of a diamond's pod: its Argo node name is {@code WORKFLOW.TASK}. */
    private static String task(Pod pod) {
        String node = pod.getMetadata().getAnnotations().get(NODE_NAME);
        return node.substring(node.lastIndexOf('.') + 1);
    }
}
