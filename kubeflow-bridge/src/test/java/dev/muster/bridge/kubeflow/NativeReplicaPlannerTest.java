package dev.muster.bridge.kubeflow;

import static dev.muster.bridge.kubeflow.TestingJobs.example;
import static dev.muster.bridge.kubeflow.TestingJobs.replicaSpec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.bridge.kubeflow.NativeReplicaPlanner.NativeReplicas;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NativeReplicaPlannerTest {
    private static final String UID = "0b6c5b8e-1111-4222-8333-944455556666";

    @Test
    void theDistributedMnistTfJobGetsAPodAndAHeadlessServicePerReplica() {
        NativeReplicas replicas = plan(job(TestingJobs.TF_DIST_MNIST, "mnist"), GangScheduling.NONE);

        assertThat(replicas.problems()).isEmpty();
        assertThat(replicas.pods()).extracting(pod -> pod.getMetadata().getName())
                .containsExactly("mnist-chief-0", "mnist-ps-0", "mnist-worker-0", "mnist-worker-1");
        assertThat(replicas.services()).extracting(service -> service.getMetadata().getName())
                .containsExactly("mnist-chief-0", "mnist-ps-0", "mnist-worker-0", "mnist-worker-1");
        Pod worker = pod(replicas, "mnist-worker-1");
        assertThat(worker.getMetadata().getNamespace()).isEqualTo("ml");
        assertThat(worker.getMetadata().getLabels()).isEqualTo(Map.of(
                "training.kubeflow.org/operator-name", "tfjob-controller",
                "training.kubeflow.org/job-name", "mnist",
                "training.kubeflow.org/replica-type", "worker",
                "training.kubeflow.org/replica-index", "1"));
        assertThat(worker.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(worker.getSpec().getSchedulerName()).isNull();
        assertThat(worker.getSpec().getContainers().get(0).getPorts())
                .singleElement().satisfies(port -> assertThat(List.of(port.getName(), port.getContainerPort())).containsExactly("tfjob-port", 2222));
    }

    @Test
    void theTfConfigNamesEveryReplicaByItsServiceAndTheTaskByTypeAndIndex() {
        Pod worker = pod(plan(job(TestingJobs.TF_DIST_MNIST, "mnist"), GangScheduling.NONE), "mnist-worker-1");

        assertThat(env(worker.getSpec().getContainers().get(0))).containsExactly(Map.entry("TF_CONFIG", "{\"cluster\":{"
                + "\"chief\":[\"mnist-chief-0.ml.svc:2222\"],\"ps\":[\"mnist-ps-0.ml.svc:2222\"],"
                + "\"worker\":[\"mnist-worker-0.ml.svc:2222\",\"mnist-worker-1.ml.svc:2222\"]},"
                + "\"task\":{\"type\":\"worker\",\"index\":1},\"environment\":\"cloud\"}"));
    }

    @Test
    void theChiefIsTheMasterRoleAndWithoutChiefOrMasterWorkerZeroIs() {
        NativeReplicas withChief = plan(job(TestingJobs.TF_DIST_MNIST, "mnist"), GangScheduling.NONE);
        ObjectNode withoutChief = job(TestingJobs.TF_DIST_MNIST, "mnist");
        ((ObjectNode) withoutChief.path("spec").path("tfReplicaSpecs")).remove("Chief");

        assertThat(withChief.pods()).filteredOn(pod -> "master".equals(pod.getMetadata().getLabels().get("training.kubeflow.org/job-role")))
                .extracting(pod -> pod.getMetadata().getName()).containsExactly("mnist-chief-0");
        assertThat(plan(withoutChief, GangScheduling.NONE).pods())
                .filteredOn(pod -> "master".equals(pod.getMetadata().getLabels().get("training.kubeflow.org/job-role")))
                .extracting(pod -> pod.getMetadata().getName()).containsExactly("mnist-worker-0");
    }

    @Test
    void aServiceSelectsItsReplicaWithoutTheRoleAndHasNoClusterIp() {
        Service chief = plan(job(TestingJobs.TF_DIST_MNIST, "mnist"), GangScheduling.NONE).services().get(0);

        assertThat(chief.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(chief.getSpec().getSelector()).isEqualTo(Map.of(
                "training.kubeflow.org/operator-name", "tfjob-controller",
                "training.kubeflow.org/job-name", "mnist",
                "training.kubeflow.org/replica-type", "chief",
                "training.kubeflow.org/replica-index", "0"));
        assertThat(chief.getMetadata().getLabels()).isEqualTo(chief.getSpec().getSelector());
        assertThat(chief.getSpec().getPorts()).singleElement()
                .satisfies(port -> assertThat(List.of(port.getName(), port.getPort())).containsExactly("tfjob-port", 2222));
    }

    @Test
    void podsAndServicesAreControlledByTheJob() {
        NativeReplicas replicas = plan(job(TestingJobs.PYTORCH_CPU_DEMO, "demo"), GangScheduling.NONE);

        assertThat(replicas.pods()).allSatisfy(pod -> assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(owner ->
                assertThat(List.of(owner.getApiVersion(), owner.getKind(), owner.getName(), owner.getUid(), owner.getController(),
                        owner.getBlockOwnerDeletion())).containsExactly("kubeflow.org/v1", "PyTorchJob", "demo", UID, true, true)));
        assertThat(replicas.services()).allSatisfy(service -> assertThat(service.getMetadata().getOwnerReferences())
                .isEqualTo(replicas.pods().get(0).getMetadata().getOwnerReferences()));
    }

    @Test
    void aTemplatesOwnPortIsKeptAndNamedInTheTfConfig() {
        ObjectNode tfJob = job(TestingJobs.TF_DIST_MNIST, "mnist");
        ((ObjectNode) replicaSpec(tfJob, "PS").path("template").path("spec").path("containers").get(0)).putArray("ports").addObject()
                .put("name", "tfjob-port").put("containerPort", 3333);

        NativeReplicas replicas = plan(tfJob, GangScheduling.NONE);

        assertThat(pod(replicas, "mnist-ps-0").getSpec().getContainers().get(0).getPorts()).extracting(port -> port.getContainerPort())
                .containsExactly(3333);
        assertThat(env(pod(replicas, "mnist-chief-0").getSpec().getContainers().get(0)).get(0).getValue())
                .contains("\"ps\":[\"mnist-ps-0.ml.svc:3333\"]").contains("\"chief\":[\"mnist-chief-0.ml.svc:2222\"]");
    }

    @Test
    void anElasticMaximumAloneIsAlsoTheMinimum() {
        ObjectNode pyTorchJob = job(TestingJobs.PYTORCH_ELASTIC_ECHO, "echo");
        ((ObjectNode) pyTorchJob.path("spec").path("elasticPolicy")).remove("minReplicas");
        ((ObjectNode) pyTorchJob.path("spec").path("elasticPolicy")).put("maxReplicas", 3);

        NativeReplicas replicas = plan(pyTorchJob, GangScheduling.NONE);

        assertThat(env(replicas.pods().get(0).getSpec().getContainers().get(0))).contains(Map.entry("PET_NNODES", "3:3"));
    }

    @Test
    void anExitCodeRestartPolicyIsNeverOnThePod() {
        ObjectNode tfJob = job(TestingJobs.TF_DIST_MNIST, "mnist");
        replicaSpec(tfJob, "Worker").put("restartPolicy", "ExitCode");

        NativeReplicas replicas = plan(tfJob, GangScheduling.NONE);

        assertThat(replicas.pods()).extracting(pod -> pod.getSpec().getRestartPolicy()).containsOnly("Never");
    }

    @Test
    void aPyTorchMasterAndWorkerGetTheRendezvousEnvironmentAndTheWorkerWaitsForTheMaster() {
        // the mnist example: Master and one Worker, no nprocPerNode (so "auto", and WORLD_SIZE counts 1 per pod)
        NativeReplicas replicas = plan(job(TestingJobs.PYTORCH_MNIST_NCCL, "torch"), GangScheduling.NONE);

        Pod worker = pod(replicas, "torch-worker-0");
        assertThat(env(worker.getSpec().getContainers().get(0))).containsExactly(
                Map.entry("PYTHONUNBUFFERED", "1"), Map.entry("MASTER_PORT", "23456"), Map.entry("PET_MASTER_PORT", "23456"),
                Map.entry("MASTER_ADDR", "torch-master-0"), Map.entry("PET_MASTER_ADDR", "torch-master-0"), Map.entry("WORLD_SIZE", "2"),
                Map.entry("RANK", "1"), Map.entry("PET_NODE_RANK", "1"), Map.entry("PET_NPROC_PER_NODE", "auto"), Map.entry("PET_NNODES", "2"));
        assertThat(env(pod(replicas, "torch-master-0").getSpec().getContainers().get(0))).contains(Map.entry("RANK", "0"));
        assertThat(worker.getSpec().getRestartPolicy()).isEqualTo("OnFailure");
        assertThat(worker.getSpec().getInitContainers()).singleElement().satisfies(init -> {
            assertThat(init.getName()).isEqualTo("init-pytorch");
            assertThat(init.getImage()).isEqualTo("alpine:3.10");
            assertThat(init.getCommand()).containsExactly("sh", "-c", "err=1;for i in $(seq 100); do if nslookup torch-master-0; "
                    + "then err=0 && break; fi;echo waiting for master; sleep 2; done; exit $err");
        });
        assertThat(pod(replicas, "torch-master-0").getSpec().getInitContainers()).isEmpty();
    }

    @Test
    void aNumericNprocPerNodeMultipliesTheWorldSize() {
        NativeReplicas replicas = plan(job(TestingJobs.PYTORCH_CPU_DEMO, "demo"), GangScheduling.NONE);

        assertThat(env(pod(replicas, "demo-master-0").getSpec().getContainers().get(0)))
                .contains(Map.entry("WORLD_SIZE", "4"), Map.entry("PET_NPROC_PER_NODE", "2"));
    }

    @Test
    void anElasticPyTorchJobGetsTheElasticPolicyAfterTheUsersOwnEnvironment() {
        NativeReplicas replicas = plan(job(TestingJobs.PYTORCH_ELASTIC_ECHO, "echo"), GangScheduling.NONE);

        Pod worker = pod(replicas, "echo-worker-1");
        assertThat(env(worker.getSpec().getContainers().get(0))).containsExactly(Map.entry("LOGLEVEL", "DEBUG"),
                Map.entry("PYTHONUNBUFFERED", "1"), Map.entry("PET_NPROC_PER_NODE", "auto"),
                Map.entry("PET_RDZV_ENDPOINT", "echo-worker-0:23456"), Map.entry("PET_RDZV_BACKEND", "c10d"),
                Map.entry("PET_NNODES", "1:2"), Map.entry("PET_MAX_RESTARTS", "100"));
        assertThat(worker.getSpec().getInitContainers()).isEmpty();
        assertThat(pod(replicas, "echo-worker-0").getMetadata().getLabels()).containsEntry("training.kubeflow.org/job-role", "master");
    }

    @Test
    void onTheVolcanoPathPodsNameTheirPodGroupAndTaskAndKeepTheirOwnScheduler() {
        ObjectNode tfJob = job(TestingJobs.TF_DIST_MNIST, "mnist");
        ((ObjectNode) replicaSpec(tfJob, "PS").path("template").path("spec")).put("schedulerName", "mine");

        NativeReplicas replicas = plan(tfJob, GangScheduling.volcano());

        assertThat(pod(replicas, "mnist-worker-0").getSpec().getSchedulerName()).isEqualTo("volcano");
        assertThat(pod(replicas, "mnist-worker-0").getMetadata().getAnnotations())
                .isEqualTo(Map.of("scheduling.k8s.io/group-name", "mnist", "volcano.sh/task-spec", "worker"));
        assertThat(pod(replicas, "mnist-ps-0").getSpec().getSchedulerName()).isEqualTo("mine");
    }

    @Test
    void onTheSchedulerPluginsPathPodsCarryThePodGroupLabel() {
        Pod pod = plan(job(TestingJobs.PYTORCH_CPU_DEMO, "demo"), GangScheduling.schedulerPlugins("muster")).pods().get(0);

        assertThat(pod.getSpec().getSchedulerName()).isEqualTo("muster");
        assertThat(pod.getMetadata().getLabels()).containsEntry("scheduling.x-k8s.io/pod-group", "demo");
        assertThat(pod.getMetadata().getAnnotations()).isNullOrEmpty();
    }

    @Test
    void aTfJobOfOneReplicaIsNotDistributedAndGetsNoTfConfig() {
        ObjectNode tfJob = job(TestingJobs.TF_DIST_MNIST, "single");
        ObjectNode specs = (ObjectNode) tfJob.path("spec").path("tfReplicaSpecs");
        specs.remove(List.of("PS", "Worker"));

        NativeReplicas replicas = plan(tfJob, GangScheduling.NONE);

        assertThat(replicas.pods()).singleElement().satisfies(pod -> assertThat(pod.getSpec().getContainers().get(0).getEnv()).isEmpty());
    }

    @Test
    void withDynamicWorkersAWorkerSeesItselfAndTheParameterServers() {
        ObjectNode tfJob = job(TestingJobs.TF_DIST_MNIST, "mnist");
        ((ObjectNode) tfJob.path("spec")).put("enableDynamicWorker", true);

        NativeReplicas replicas = plan(tfJob, GangScheduling.NONE);

        assertThat(env(pod(replicas, "mnist-worker-1").getSpec().getContainers().get(0))).containsExactly(Map.entry("TF_CONFIG",
                "{\"cluster\":{\"worker\":{\"1\":\"mnist-worker-1.ml.svc:2222\"},\"ps\":[\"mnist-ps-0.ml.svc:2222\"]},"
                        + "\"task\":{\"type\":\"worker\",\"index\":1}}"));
    }

    @Test
    void aReplicaWithoutTheKindsContainerMakesNothingAndSaysWhy() {
        ObjectNode pyTorchJob = job(TestingJobs.PYTORCH_CPU_DEMO, "demo");
        ((ObjectNode) replicaSpec(pyTorchJob, "Worker").path("template").path("spec").path("containers").get(0)).put("name", "trainer");

        NativeReplicas replicas = plan(pyTorchJob, GangScheduling.NONE);

        assertThat(replicas.pods()).isEmpty();
        assertThat(replicas.services()).isEmpty();
        assertThat(replicas.problems()).extracting(FieldProblem::toString).containsExactly(
                "spec.pytorchReplicaSpecs.Worker.template.spec.containers: no container named 'pytorch', which gives the replicas' ports");
    }

    @Test
    void anUnknownRestartPolicyMakesNothing() {
        ObjectNode tfJob = job(TestingJobs.TF_DIST_MNIST, "mnist");
        replicaSpec(tfJob, "PS").put("restartPolicy", "Sometimes");

        NativeReplicas replicas = plan(tfJob, GangScheduling.NONE);

        assertThat(replicas.pods()).isEmpty();
        assertThat(replicas.problems()).extracting(FieldProblem::field).containsExactly("spec.tfReplicaSpecs.PS.restartPolicy");
    }

    private static ObjectNode job(String file, String name) {
        ObjectNode job = example(file, "ml", name);
        ((ObjectNode) job.path("metadata")).put("uid", UID);
        return job;
    }

    private static NativeReplicas plan(ObjectNode job, GangScheduling gang) {
        return NativeReplicaPlanner.plan(NativeJobReader.read(TestingJobs.kindOf(job), job), gang);
    }

    private static Pod pod(NativeReplicas replicas, String name) {
        return replicas.pods().stream().filter(pod -> pod.getMetadata().getName().equals(name)).findFirst().orElseThrow();
    }

    private static List<Map.Entry<String, String>> env(Container container) {
        return container.getEnv().stream().map(EnvVar.class::cast).map(env -> Map.entry(env.getName(), env.getValue())).toList();
    }
}
