package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The job controllers of {@code muster up}: plugin objects and their cleanup, bad input, restarts, failed JobFlow stages. */
class JobControllersTest {
    private static EmbeddedCluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        cluster = JobExamplesTest.startCluster();
        client = cluster.client();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void theMpiJobGetsItsServiceHostsAndKeyAndDeletingItLeavesNothingBehind() throws IOException {
        // given: the MPI example, in a namespace of its own (which must exist, as on kube-apiserver)
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("mpi").endMetadata().build()).create();
        VolcanoObjects.create(client, VolcanoObjects.example("mpi-ssh-svc.yaml").replace("namespace: default", "namespace: mpi"));
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(client.pods().inNamespace("mpi").list().getItems()).hasSize(3));
        String uid = VolcanoObjects.job(client, "mpi", "lm-mpi-job").getMetadata().getUid();
        String privateKey = new String(Base64.getDecoder().decode(client.secrets().inNamespace("mpi").withName("lm-mpi-job-ssh").get()
                .getData().get("id_rsa")), StandardCharsets.US_ASCII);

        // then: a headless Service, the hosts ConfigMap and the key pair, all owned by the job
        assertThat(client.services().inNamespace("mpi").withName("lm-mpi-job").get().getSpec().getClusterIP()).isEqualTo("None");
        assertThat(client.configMaps().inNamespace("mpi").withName("lm-mpi-job-svc").get().getData())
                .containsEntry("mpiworker.host", "lm-mpi-job-mpiworker-0.lm-mpi-job\nlm-mpi-job-mpiworker-1.lm-mpi-job");
        assertThat(privateKey).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(client.secrets().inNamespace("mpi").withName("lm-mpi-job-ssh").get().getMetadata().getOwnerReferences())
                .singleElement().satisfies(owner -> assertThat(owner.getUid()).isEqualTo(uid));
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.phase(client, "mpi", "lm-mpi-job")).isEqualTo("Completed"));

        // when
        client.genericKubernetesResources(VolcanoObjects.JOBS).inNamespace("mpi").withName("lm-mpi-job").delete();

        // then
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> {
            assertThat(client.pods().inNamespace("mpi").list().getItems()).isEmpty();
            assertThat(client.genericKubernetesResources(VolcanoObjects.POD_GROUPS).inNamespace("mpi").list().getItems()).isEmpty();
            assertThat(client.services().inNamespace("mpi").list().getItems()).isEmpty();
            assertThat(client.configMaps().inNamespace("mpi").list().getItems()).isEmpty();
            assertThat(client.secrets().inNamespace("mpi").list().getItems()).isEmpty();
        });
    }

    @Test
    void anInvalidJobFailsWithItsProblemWhileAValidJobBesideItCompletes() {
        // given
        VolcanoObjects.create(client, job("too-big", 3, 2, "1s", "") + "---\n" + job("fine", 2, 2, "1s", ""));

        // then
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> {
            GenericKubernetesResource job = VolcanoObjects.job(client, "default", "too-big");
            assertThat(job.<Object>get("status", "state", "phase")).isEqualTo("Failed");
            assertThat(job.<Object>get("status", "state", "reason")).isEqualTo("InvalidSpec");
            assertThat(job.<String>get("status", "state", "message")).contains("minAvailable", "3");
        });
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.events(client, "default", "Job", "too-big"))
                .singleElement().satisfies(event -> assertThat(event).startsWith("Warning InvalidSpec: ").contains("minAvailable")));
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.phase(client, "default", "fine")).isEqualTo("Completed"));
        assertThat(client.pods().inNamespace("default").list().getItems()).noneMatch(pod -> pod.getMetadata().getName().startsWith("too-big-"));
    }

    @Test
    void aFailedPodWithARestartJobPolicyRestartsTheJobUntilItsRetriesAreSpent() {
        // given: a pod that exits with code 3 after a second; PodFailed restarts the job, at most twice
        VolcanoObjects.create(client, job("flaky", 1, 1, "1s", "3").replace("  tasks:",
                "  maxRetry: 2\n  policies:\n  - {event: PodFailed, action: RestartJob}\n  tasks:"));

        // then: it restarted (the retry count went up), and failed once its retries were spent
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(retryCount("flaky")).isGreaterThanOrEqualTo(1));
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.phase(client, "default", "flaky")).isEqualTo("Failed"));
        assertThat(retryCount("flaky")).isEqualTo(2);
        assertThat(VolcanoObjects.events(client, "default", "Job", "flaky")).anyMatch(event -> event.contains("RestartJob"));
    }

    @Test
    void aPolicyWithATimeoutActsWhenTheTimeoutHasPassed() {
        // given: a server that runs on and a client that fails after a second; a failed pod restarts the
        // job, but only if it has not run again within 2s
        VolcanoObjects.create(client, """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: patient, namespace: default}
                spec:
                  schedulerName: volcano
                  minAvailable: 2
                  maxRetry: 1
                  policies:
                  - {event: PodFailed, action: RestartJob, timeout: 2s}
                  tasks:
                  - name: server
                    replicas: 1
                    template:
                      spec:
                        containers: [{name: main, image: busybox, resources: {requests: {cpu: 500m}}}]
                  - name: client
                    replicas: 1
                    template:
                      metadata:
                        annotations: {muster.dev/duration: 1s, muster.dev/exit-code: '4'}
                      spec:
                        restartPolicy: Never
                        containers: [{name: main, image: busybox, resources: {requests: {cpu: 500m}}}]
                """);

        // then: the action was put off, then taken
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.events(client, "default", "Job", "patient"))
                .contains("Normal ExecuteAction: Execute action RestartJob after 2s"));
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(retryCount("patient")).isEqualTo(1));
        // the event is posted after the status is written
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.events(client, "default", "Job", "patient"))
                .contains("Normal ExecuteAction: Start to execute action RestartJob"));
    }

    @Test
    void aFailedJobFlowStageSkipsEveryStageAfterIt() {
        // given: extract, then transform, then load; extract fails
        String flow = template("extract", "1s", "1") + "---\n" + template("transform", "1s", "") + "---\n" + template("load", "1s", "") + """
                ---
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: etl, namespace: default}
                spec:
                  flows:
                  - name: extract
                  - name: transform
                    dependsOn: {targets: [extract]}
                  - name: load
                    dependsOn: {targets: [transform]}
                """;

        // when
        VolcanoObjects.create(client, flow);

        // then
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> {
            assertThat(VolcanoObjects.flowPhase(client, "default", "etl")).isEqualTo("Failed");
            assertThat(VolcanoObjects.flowJobStates(client, "default", "etl"))
                    .containsExactlyInAnyOrder("etl-extract=Failed", "etl-transform=Skipped", "etl-load=Skipped");
        });
        assertThat(VolcanoObjects.job(client, "default", "etl-transform")).isNull();
        assertThat(VolcanoObjects.events(client, "default", "JobFlow", "etl")).anyMatch(event -> event.startsWith("Warning Stopped: etl-transform"));
    }

    @Test
    void anInvalidJobFlowGetsItsProblemInItsStateWhileAValidFlowBesideItSucceeds() {
        // given: two flows of the same template, one of them depending on itself
        VolcanoObjects.create(client, template("solo", "1s", "") + """
                ---
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: loop, namespace: default}
                spec:
                  flows:
                  - name: solo
                    dependsOn: {targets: [solo]}
                ---
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: single, namespace: default}
                spec:
                  flows:
                  - name: solo
                """);

        // then: the self-dependency is named in the state and in one event; the other flow runs to the end
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> {
            GenericKubernetesResource loop = client.genericKubernetesResources(VolcanoObjects.JOB_FLOWS).inNamespace("default").withName("loop").get();
            assertThat(loop.<Object>get("status", "state", "phase")).isEqualTo("Failed");
            assertThat(loop.<Object>get("status", "state", "reason")).isEqualTo("InvalidJobFlow");
            assertThat(loop.<String>get("status", "state", "message")).isEqualTo("spec.flows[0].dependsOn.targets: self-edge on solo");
        });
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.flowPhase(client, "default", "single")).isEqualTo("Succeed"));
        assertThat(VolcanoObjects.events(client, "default", "JobFlow", "loop")).containsExactly("Warning InvalidJobFlow: spec.flows[0].dependsOn.targets: self-edge on solo");
        assertThat(VolcanoObjects.job(client, "default", "loop-solo")).isNull();
    }

    @Test
    void aJobTemplateListsTheJobsMadeFromItAndAnInvalidOneSaysWhy() {
        // given: a template two flows use, and a template with a field Volcano's JobSpec does not have
        VolcanoObjects.create(client, template("shared", "1s", "") + "---\n" + template("odd", "1s", "").replace("  minAvailable: 1",
                "  minAvailable: 1\n  colour: blue") + """
                ---
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: first, namespace: default}
                spec:
                  flows: [{name: shared}]
                ---
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: second, namespace: default}
                spec:
                  flows: [{name: shared}]
                """);

        // then
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(client.genericKubernetesResources(VolcanoObjects.JOB_TEMPLATES)
                .inNamespace("default").withName("shared").get().<Object>get("status", "jobDependsOnList"))
                .isEqualTo(List.of("first-shared", "second-shared")));
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.events(client, "default", "JobTemplate", "odd"))
                .singleElement().satisfies(event -> assertThat(event)
                        .startsWith("Warning InvalidJobTemplate: JobTemplate default/odd: spec.colour: unknown field (known: ")));
        assertThat(client.genericKubernetesResources(VolcanoObjects.JOB_TEMPLATES).inNamespace("default").withName("odd").get()
                .<Object>get("status", "jobDependsOnList")).isNull();
    }

    private static int retryCount(String job) {
        Object count = VolcanoObjects.job(client, "default", job).get("status", "retryCount");
        return count == null ? 0 : ((Number) count).intValue();
    }

    /** A Volcano Job of one task of {@code replicas} pods, each running {@code duration} and exiting with {@code exitCode} if given. */
    private static String job(String name, int minAvailable, int replicas, String duration, String exitCode) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: default}
                spec:
                  schedulerName: volcano
                  minAvailable: %d
                  tasks:
                  - name: main
                    replicas: %d
                    template:
                      metadata:
                        annotations: {muster.dev/duration: %s%s}
                      spec:
                        restartPolicy: Never
                        containers: [{name: main, image: busybox, resources: {requests: {cpu: 500m}}}]
                """.formatted(name, minAvailable, replicas, duration, exitCode.isEmpty() ? "" : ", muster.dev/exit-code: '" + exitCode + "'");
    }

    private static String template(String name, String duration, String exitCode) {
        return job(name, 1, 1, duration, exitCode).replace("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job",
                "apiVersion: flow.volcano.sh/v1alpha1\nkind: JobTemplate");
    }
}
