package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code bus.volcano.sh} Commands, as {@code vcctl job suspend} and {@code resume} create them, against {@code muster up}'s job controllers. */
class JobCommandsTest {
    private static final ResourceDefinitionContext COMMANDS = new ResourceDefinitionContext.Builder().withGroup("bus.volcano.sh")
            .withVersion("v1alpha1").withKind("Command").withPlural("commands").withNamespaced(true).build();
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
    void aSuspendedJobIsAbortedAndAResumedOneRunsAgain() {
        // given: a job of two pods that run for an hour
        VolcanoObjects.create(client, """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: long, namespace: default}
                spec:
                  schedulerName: volcano
                  minAvailable: 2
                  tasks:
                  - name: main
                    replicas: 2
                    template:
                      metadata:
                        annotations: {muster.dev/duration: 1h}
                      spec:
                        containers: [{name: main, image: busybox, resources: {requests: {cpu: 500m}}}]
                """);
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.phase(client, "default", "long")).isEqualTo("Running"));
        String uid = VolcanoObjects.job(client, "default", "long").getMetadata().getUid();

        // when: vcctl job suspend
        command("long-abortjob-1", "AbortJob", "long", uid);

        // then: the pods go, the job is Aborted, the Command is gone
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> {
            assertThat(VolcanoObjects.phase(client, "default", "long")).isEqualTo("Aborted");
            assertThat(client.pods().inNamespace("default").list().getItems()).noneMatch(pod -> pod.getMetadata().getName().startsWith("long-"));
        });
        assertThat(client.genericKubernetesResources(COMMANDS).inNamespace("default").withName("long-abortjob-1").get()).isNull();

        // when: vcctl job resume
        command("long-resumejob-1", "ResumeJob", "long", uid);

        // then: it runs again, and each command left its event on the job
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.phase(client, "default", "long")).isEqualTo("Running"));
        assertThat(client.genericKubernetesResources(COMMANDS).inNamespace("default").withName("long-resumejob-1").get()).isNull();
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.events(client, "default", "Job", "long"))
                .filteredOn(event -> event.startsWith("Normal CommandIssued: "))
                .containsExactly("Normal CommandIssued: Start to execute command AbortJob, and clean it up to make sure executed not more than once.",
                        "Normal CommandIssued: Start to execute command ResumeJob, and clean it up to make sure executed not more than once."));
    }

    @Test
    void aCommandForAMissingJobOrAnUnknownActionIsDeletedWithAWarningAndTheOthersRun() {
        // given: a job that runs for an hour
        VolcanoObjects.create(client, """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: target, namespace: default}
                spec:
                  schedulerName: volcano
                  minAvailable: 1
                  tasks:
                  - name: main
                    replicas: 1
                    template:
                      metadata:
                        annotations: {muster.dev/duration: 1h}
                      spec:
                        containers: [{name: main, image: busybox, resources: {requests: {cpu: 500m}}}]
                """);
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(VolcanoObjects.phase(client, "default", "target")).isEqualTo("Running"));
        String uid = VolcanoObjects.job(client, "default", "target").getMetadata().getUid();

        // when: one command names a job that does not exist, one an action that does not, one is good
        command("ghost-abortjob-1", "AbortJob", "ghost", "0000");
        command("target-dance-1", "Dance", "target", uid);
        command("target-terminatejob-1", "TerminateJob", "target", uid);

        // then
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> {
            assertThat(VolcanoObjects.events(client, "default", "Command", "ghost-abortjob-1"))
                    .containsExactly("Warning JobNotFound: Command default/ghost-abortjob-1: target.name: no Job default/ghost with uid 0000 "
                            + "for action AbortJob");
            assertThat(VolcanoObjects.events(client, "default", "Command", "target-dance-1"))
                    .containsExactly("Warning UnknownAction: Command default/target-dance-1: action 'Dance' is not one of "
                            + "AbortJob, ResumeJob, RestartJob, TerminateJob, CompleteJob");
        });
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> {
            assertThat(client.genericKubernetesResources(COMMANDS).inNamespace("default").list().getItems()).isEmpty();
            assertThat(VolcanoObjects.phase(client, "default", "target")).isEqualTo("Terminated");
        });
    }

    /**
     * A Command as {@code vcctl} makes it: aimed at the job, and owned by it when it exists (a Command
     * for a job deleted meanwhile would otherwise go with it).
     */
    private static void command(String name, String action, String job, String uid) {
        String owner = VolcanoObjects.job(client, "default", job) == null ? "" : """
                  ownerReferences:
                  - {apiVersion: batch.volcano.sh/v1alpha1, kind: Job, name: %s, uid: '%s', controller: true, blockOwnerDeletion: true}
                """.formatted(job, uid);
        VolcanoObjects.create(client, """
                apiVersion: bus.volcano.sh/v1alpha1
                kind: Command
                metadata:
                  name: %s
                  namespace: default
                %saction: %s
                target: {apiVersion: batch.volcano.sh/v1alpha1, kind: Job, name: %s, uid: '%s', controller: true, blockOwnerDeletion: true}
                """.formatted(name, owner, action, job, uid));
    }
}
