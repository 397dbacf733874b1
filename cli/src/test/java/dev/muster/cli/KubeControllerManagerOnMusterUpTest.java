package dev.muster.cli;

import static dev.muster.cli.TestingKubectl.kubectl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kube-controller-manager (v1.34.4) against {@code muster up --peer kube-controller-manager}, which installs
 * and starts it: a batch/v1 Job of three completions, two at a time, asking for Muster, gets its pods from the real job
 * controller, Muster binds them, the simulated kubelet ends them, and the job controller marks the Job Complete; a
 * Deployment of two replicas gets its ReplicaSet and pods from the real controllers and becomes available; a CronJob
 * of every minute gets a Job from the cronjob controller, which runs to Complete. kubectl's table of the Job is
 * kube-apiserver's.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class KubeControllerManagerOnMusterUpTest {
    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final String JOB = """
            apiVersion: batch/v1
            kind: Job
            metadata: {name: pi, namespace: default}
            spec:
              completions: 3
              parallelism: 2
              template:
                metadata:
                  annotations: {muster.dev/duration: 2s}
                spec:
                  schedulerName: muster
                  restartPolicy: Never
                  containers: [{name: main, image: "perl:5", resources: {requests: {cpu: "1"}}}]
            """;
    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: default}
            spec:
              replicas: 2
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec:
                  containers: [{name: main, image: "nginx:1", resources: {requests: {cpu: "1"}}}]
            """;

    private static final String CRON_JOB = """
            apiVersion: batch/v1
            kind: CronJob
            metadata: {name: every-minute, namespace: default}
            spec:
              schedule: "* * * * *"
              jobTemplate:
                spec:
                  template:
                    metadata:
                      annotations: {muster.dev/duration: 1s}
                    spec:
                      schedulerName: muster
                      restartPolicy: Never
                      containers: [{name: main, image: "busybox:1", resources: {requests: {cpu: "1"}}}]
            """;

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(WAIT);

    @Test
    void aJobAndACronJobsJobRunToCompleteAndADeploymentBecomesAvailable() throws Exception {
        // given: muster up with two nodes of 4 CPUs, and kube-controller-manager against it
        KubernetesClient client = up.start(directory, "--nodes", "2:cpu=4,memory=16Gi", "--peer", "kube-controller-manager");

        // when
        client.resource(Serialization.unmarshal(JOB, GenericKubernetesResource.class)).create();
        client.resource(Serialization.unmarshal(DEPLOYMENT, GenericKubernetesResource.class)).create();
        client.resource(Serialization.unmarshal(CRON_JOB, GenericKubernetesResource.class)).create();

        // then: the job controller made three pods over time, Muster bound each, and the Job is Complete
        await().atMost(WAIT).untilAsserted(() -> assertThat(conditions(client.batch().v1().jobs().inNamespace("default").withName("pi").get()))
                .as("the Job's conditions (muster up's stdout names the controller manager's log)").contains("Complete"));
        Job job = client.batch().v1().jobs().inNamespace("default").withName("pi").get();
        assertThat(job.getStatus().getSucceeded()).isEqualTo(3);
        List<Pod> pods = client.pods().inNamespace("default").withLabel("batch.kubernetes.io/job-name", "pi").list().getItems();
        assertThat(pods).hasSize(3).allSatisfy(pod -> {
            assertThat(pod.getSpec().getNodeName()).isNotEmpty();
            assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> assertThat(owner.getUid())
                    .isEqualTo(job.getMetadata().getUid()));
            assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
        });
        await().atMost(WAIT).untilAsserted(() -> {
            Deployment web = client.apps().deployments().inNamespace("default").withName("web").get();
            assertThat(web.getStatus()).isNotNull();
            assertThat(web.getStatus().getAvailableReplicas()).as("the Deployment's available replicas").isEqualTo(2);
        });
        assertThat(client.pods().inNamespace("default").withLabel("app", "web").list().getItems())
                .hasSize(2).allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNotEmpty());

        // the cronjob controller makes a Job within the minute, owned by the CronJob, which runs to Complete
        await().atMost(WAIT).untilAsserted(() -> assertThat(client.batch().v1().jobs().inNamespace("default").list().getItems())
                .filteredOn(made -> !made.getMetadata().getOwnerReferences().isEmpty()
                        && made.getMetadata().getOwnerReferences().get(0).getName().equals("every-minute"))
                .as("the CronJob's Jobs").anySatisfy(made -> assertThat(conditions(made)).contains("Complete")));

        List<String> table = kubectl(up.kubeconfig(), "get", "job", "pi", "-n", "default").lines().toList();
        assertThat(table).hasSize(2);
        assertThat(table.get(0)).matches("NAME\\s+STATUS\\s+COMPLETIONS\\s+DURATION\\s+AGE");
        assertThat(table.get(1)).matches("pi\\s+Complete\\s+3/3\\s+\\d+s\\s+\\d+s");
    }

    private static List<String> conditions(Job job) {
        if (job == null || job.getStatus() == null || job.getStatus().getConditions() == null) {
            return List.of();
        }
        return job.getStatus().getConditions().stream().filter(condition -> condition.getStatus().equals("True"))
                .map(JobCondition::getType).flatMap(Stream::of).toList();
    }
}
