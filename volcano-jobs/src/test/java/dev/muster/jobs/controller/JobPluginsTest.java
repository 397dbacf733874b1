package dev.muster.jobs.controller;

import static dev.muster.jobs.controller.TestingJobStates.KEYS;
import static dev.muster.jobs.controller.TestingJobStates.NOW;
import static dev.muster.jobs.controller.TestingJobStates.RECONCILER;
import static dev.muster.jobs.controller.TestingJobStates.inPhase;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.jobs.JobPhase;
import dev.muster.jobs.TestingJobs;
import dev.muster.jobs.VolcanoJob;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Each job plugin's effect on the pods and the objects it makes, on the example manifests. */
class JobPluginsTest {
    private static JobPlan firstPods(String fixture) {
        VolcanoJob job = TestingJobs.fixtureJob(fixture);
        return RECONCILER.reconcile(inPhase(job, JobPhase.PENDING, 0), ObservedJob.of(PodGroupPhase.INQUEUE), NOW);
    }

    private static Pod pod(JobPlan plan, String name) {
        return plan.podsToCreate().stream().filter(pod -> pod.getMetadata().getName().equals(name)).findFirst().orElseThrow();
    }

    private static Map<String, String> env(Container container) {
        return container.getEnv().stream().filter(variable -> variable.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    @Test
    void svcMakesAHeadlessServiceAndHostsMountedInEveryPod() {
        JobPlan plan = firstPods("mpi-ssh-svc.yaml");

        ConfigMap hosts = (ConfigMap) plan.objectsToApply().stream().filter(ConfigMap.class::isInstance).findFirst().orElseThrow();
        assertThat(hosts.getMetadata().getName()).isEqualTo("lm-mpi-job-svc");
        assertThat(hosts.getData())
                .containsEntry("mpiworker.host", "lm-mpi-job-mpiworker-0.lm-mpi-job\nlm-mpi-job-mpiworker-1.lm-mpi-job")
                .containsEntry("VC_MPIWORKER_HOSTS", "lm-mpi-job-mpiworker-0.lm-mpi-job,lm-mpi-job-mpiworker-1.lm-mpi-job")
                .containsEntry("VC_MPIWORKER_NUM", "2")
                .containsEntry("VC_MPIMASTER_NUM", "1");
        Service service = (Service) plan.objectsToApply().stream().filter(Service.class::isInstance).findFirst().orElseThrow();
        assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(service.getSpec().getSelector()).containsEntry("volcano.sh/job-name", "lm-mpi-job");
        assertThat(plan.objectsToApply()).extracting(HasMetadata::getKind).contains("NetworkPolicy");
        Pod worker = pod(plan, "lm-mpi-job-mpiworker-1");
        assertThat(worker.getSpec().getHostname()).isEqualTo("lm-mpi-job-mpiworker-1");
        assertThat(worker.getSpec().getSubdomain()).isEqualTo("lm-mpi-job");
        assertThat(worker.getSpec().getContainers().get(0).getVolumeMounts())
                .anySatisfy(mount -> assertThat(mount.getMountPath()).isEqualTo("/etc/volcano"));
        assertThat(worker.getSpec().getContainers().get(0).getEnv()).extracting(EnvVar::getName).contains("VC_MPIWORKER_HOSTS");
    }

    @Test
    void sshPutsTheKeysInAnOwnedSecretMountedInEveryPodOnce() {
        JobPlan plan = firstPods("mpi-ssh-svc.yaml");

        Secret secret = (Secret) plan.objectsToCreate().stream().filter(Secret.class::isInstance).findFirst().orElseThrow();
        assertThat(secret.getMetadata().getName()).isEqualTo("lm-mpi-job-ssh");
        assertThat(secret.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> assertThat(owner.getName()).isEqualTo("lm-mpi-job"));
        assertThat(decode(secret, "id_rsa")).isEqualTo(KEYS.privateKey());
        assertThat(decode(secret, "authorized_keys")).isEqualTo(KEYS.publicKey());
        assertThat(decode(secret, "config")).contains("Host lm-mpi-job-mpiworker-0\n  HostName lm-mpi-job-mpiworker-0.lm-mpi-job\n  Port 22\n");
        Pod master = pod(plan, "lm-mpi-job-mpimaster-0");
        assertThat(master.getSpec().getVolumes()).anySatisfy(volume -> {
            assertThat(volume.getSecret().getSecretName()).isEqualTo("lm-mpi-job-ssh");
            assertThat(volume.getSecret().getDefaultMode()).isEqualTo(0600);
        });
        assertThat(master.getSpec().getContainers().get(0).getVolumeMounts())
                .anySatisfy(mount -> assertThat(mount.getMountPath()).isEqualTo("/root/.ssh"));
        assertThat(plan.status().orElseThrow().controlledResources()).containsEntry("plugin-ssh", "ssh");
        assertThat(plan.toString()).doesNotContain("secret").doesNotContain("PRIVATE KEY");

        VolcanoJob again = TestingJobs.fixtureJob("mpi-ssh-svc.yaml").withStatus(plan.status().orElseThrow());
        assertThat(RECONCILER.reconcile(again, ObservedJob.of(PodGroupPhase.INQUEUE), NOW).objectsToCreate()).isEmpty();
    }

    @Test
    void aSecretFoundGoneIsMadeAgainAndTheJobsPluginObjectsAreNamed() {
        VolcanoJob job = TestingJobs.fixtureJob("mpi-ssh-svc.yaml");
        VolcanoJob again = job.withStatus(firstPods("mpi-ssh-svc.yaml").status().orElseThrow());
        ObjectRef secret = new ObjectRef("v1", "Secret", "default", "lm-mpi-job-ssh");

        JobPlan plan = RECONCILER.reconcile(again, ObservedJob.of(PodGroupPhase.INQUEUE).withMissingObjects(ImmutableSet.of(secret)), NOW);

        assertThat(plan.objectsToCreate()).extracting(object -> object.getKind() + " " + object.getMetadata().getName())
                .containsExactly("Secret lm-mpi-job-ssh");
        assertThat(RECONCILER.pluginObjects(job)).extracting(ObjectRef::toString).containsExactly("Secret default/lm-mpi-job-ssh",
                "ConfigMap default/lm-mpi-job-svc", "Service default/lm-mpi-job", "NetworkPolicy default/lm-mpi-job");
    }

    @Test
    void killingTheJobDeletesThePluginObjects() {
        JobPlan first = firstPods("mpi-ssh-svc.yaml");
        VolcanoJob running = TestingJobs.fixtureJob("mpi-ssh-svc.yaml").withStatus(first.status().orElseThrow().transition(JobPhase.RUNNING, "", "", NOW));

        JobPlan abort = RECONCILER.reconcile(running, ObservedJob.NOTHING, JobRequest.command(dev.muster.jobs.JobAction.ABORT_JOB), NOW);

        assertThat(abort.objectsToDelete()).extracting(ObjectRef::toString)
                .contains("Secret default/lm-mpi-job-ssh", "ConfigMap default/lm-mpi-job-svc", "Service default/lm-mpi-job");
        assertThat(abort.status().orElseThrow().controlledResources()).doesNotContainKeys("plugin-ssh", "plugin-svc");
    }

    @Test
    void envGivesEachPodItsTaskIndex() {
        Pod worker = pod(firstPods("tensorflow-ps-worker.yaml"), "tensorflow-dist-mnist-worker-3");

        assertThat(env(worker.getSpec().getContainers().get(0))).containsEntry("VK_TASK_INDEX", "3").containsEntry("VC_TASK_INDEX", "3");
    }

    @Test
    void tensorflowDescribesTheClusterAndThePodsRole() throws IOException {
        Pod worker = pod(firstPods("tensorflow-ps-worker.yaml"), "tensorflow-dist-mnist-worker-1");

        JsonNode config = new ObjectMapper().readTree(env(worker.getSpec().getContainers().get(0)).get("TF_CONFIG"));
        assertThat(config.path("cluster").path("ps")).hasSize(2);
        assertThat(config.path("cluster").path("ps").get(0).asText()).isEqualTo("tensorflow-dist-mnist-ps-0.tensorflow-dist-mnist:2222");
        assertThat(config.path("cluster").path("worker")).hasSize(4);
        assertThat(config.path("task").path("type").asText()).isEqualTo("worker");
        assertThat(config.path("task").path("index").asInt()).isEqualTo(1);
    }

    @Test
    void pytorchGivesMasterAddressWorldSizeAndRanks() {
        VolcanoJob job = TestingJobs.job("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: ddp, namespace: ml}
                spec:
                  plugins: {pytorch: ["--master=master", "--worker=worker", "--port=23456"]}
                  tasks:
                  - {name: master, replicas: 1, template: {spec: {containers: [{name: c, image: torch}]}}}
                  - {name: worker, replicas: 3, template: {spec: {containers: [{name: c, image: torch}]}}}
                """);

        JobPlan plan = RECONCILER.reconcile(inPhase(job, JobPhase.PENDING, 0), ObservedJob.of(PodGroupPhase.INQUEUE), NOW);

        Map<String, String> master = env(pod(plan, "ddp-master-0").getSpec().getContainers().get(0));
        Map<String, String> worker = env(pod(plan, "ddp-worker-2").getSpec().getContainers().get(0));
        assertThat(master).containsEntry("MASTER_ADDR", "ddp-master-0.ddp").containsEntry("MASTER_PORT", "23456")
                .containsEntry("WORLD_SIZE", "4").containsEntry("RANK", "0");
        assertThat(worker).containsEntry("RANK", "3").containsEntry("WORLD_SIZE", "4");
        assertThat(pod(plan, "ddp-worker-2").getSpec().getContainers().get(0).getPorts())
                .anySatisfy(port -> assertThat(port.getContainerPort()).isEqualTo(23456));
        assertThat(plan.objectsToApply()).extracting(HasMetadata::getKind).contains("Service");
    }

    @Test
    void unknownPluginsAndFlagsAreProblems() {
        VolcanoJob job = TestingJobs.job("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: j}
                spec:
                  plugins: {svc: ["--publish-not-ready"], sshh: []}
                  tasks: [{name: a, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}]
                """);

        JobPlan plan = RECONCILER.reconcile(job, ObservedJob.NOTHING, NOW);

        assertThat(plan.status().orElseThrow().message())
                .contains("spec.plugins.svc: unknown flag --publish-not-ready")
                .contains("spec.plugins.sshh: unknown plugin");
    }

    private static String decode(Secret secret, String key) {
        return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
    }
}
