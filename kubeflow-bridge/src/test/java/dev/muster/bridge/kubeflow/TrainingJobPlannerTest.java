package dev.muster.bridge.kubeflow;

import static dev.muster.bridge.kubeflow.TestingJobs.example;
import static dev.muster.bridge.kubeflow.TestingJobs.schedulingPolicy;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSet;
import dev.muster.bridge.kubeflow.TrainingJobPlan.MirrorPodGroup;
import dev.muster.bridge.kubeflow.TrainingJobPlanner.JobPods;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TrainingJobPlannerTest {
    private static final Instant CREATED = Instant.parse("2026-12-01T10:00:00Z");
    private static final ImmutableSet<String> QUEUES = ImmutableSet.of("default", "research");

    @Test
    void aSchedulerPluginsPodGroupGetsAVolcanoMirrorWithTheJobsQueue() {
        ObjectNode job = example(TestingJobs.TF_DIST_MNIST);
        schedulingPolicy(job).put("queue", "research").put("priorityClass", "high");
        PodGroupView coscheduling = podGroup("scheduling.x-k8s.io/v1alpha1", 4, "");

        TrainingJobPlan plan = plan(job, Optional.empty(), Optional.of(coscheduling), new JobPods(4, 0), CREATED.plusSeconds(1));

        assertThat(plan.problems()).isEmpty();
        assertThat(plan.mirror()).contains(new MirrorPodGroup("dist-mnist-for-e2e-test", 4, "research", Optional.of("high"),
                coscheduling.minResources()));
    }

    @Test
    void anElasticPyTorchJobsMirrorIsItsGangAtTheMinimumWithoutTheMaximumsResources() {
        // the echo example: two Workers, elasticPolicy minReplicas 1, maxReplicas 2; the operator's PodGroup says 2
        TrainingJobPlan plan = plan(example(TestingJobs.PYTORCH_ELASTIC_ECHO), Optional.empty(),
                Optional.of(podGroup("scheduling.x-k8s.io/v1alpha1", 2, "")), new JobPods(2, 0), CREATED);

        assertThat(plan.mirror().orElseThrow().minMember()).isEqualTo(1);
        assertThat(plan.mirror().orElseThrow().minResources().isEmpty()).isTrue();
    }

    @Test
    void anElasticPyTorchJobsMirrorAsksForTheResourcesOfItsGangAtTheMinimum() {
        ObjectNode job = example(TestingJobs.PYTORCH_ELASTIC_ECHO);
        ObjectNode minimum = JsonNodeFactory.instance.objectNode().put("cpu", "2");

        TrainingJobPlan plan = TrainingJobPlanner.plan(TrainingJobReader.read(TestingJobs.kindOf(job), job), QUEUES, Optional.empty(),
                Optional.of(podGroup("scheduling.x-k8s.io/v1alpha1", 2, "")), new JobPods(2, 0), minimum, CREATED);

        assertThat(plan.mirror().orElseThrow().minResources()).isEqualTo(minimum);
    }

    @Test
    void anElasticPyTorchJobWithMinAvailableKeepsTheUsersGangSize() {
        ObjectNode job = example(TestingJobs.PYTORCH_ELASTIC_ECHO);
        schedulingPolicy(job).put("minAvailable", 2);

        TrainingJobPlan plan = plan(job, Optional.empty(), Optional.of(podGroup("scheduling.x-k8s.io/v1alpha1", 2, "")), new JobPods(2, 0),
                CREATED);

        assertThat(plan.mirror().orElseThrow().minMember()).isEqualTo(2);
    }

    @Test
    void aJobWithoutAQueueGoesToTheDefaultQueue() {
        TrainingJobPlan plan = plan(example(TestingJobs.TF_DIST_MNIST), Optional.empty(),
                Optional.of(podGroup("scheduling.x-k8s.io/v1alpha1", 4, "")), new JobPods(0, 0), CREATED);

        assertThat(plan.mirror().orElseThrow().queue()).isEqualTo("default");
    }

    @Test
    void anUnknownQueueIsBadInputAndNothingIsWritten() {
        ObjectNode job = example(TestingJobs.TF_DIST_MNIST);
        schedulingPolicy(job).put("queue", "nope");

        TrainingJobPlan plan = plan(job, Optional.empty(), Optional.of(podGroup("scheduling.x-k8s.io/v1alpha1", 4, "")), new JobPods(0, 0),
                CREATED);

        assertThat(plan.problems()).extracting(FieldProblem::toString)
                .containsExactly("spec.runPolicy.schedulingPolicy.queue: queue 'nope' does not exist (known: default, research)");
        assertThat(plan.mirror()).isEmpty();
        assertThat(plan.pending()).isEmpty();
    }

    @Test
    void aStaleTooFewPodsReasonIsNotGivenOnceEveryPodExists() {
        // the PodGroup's status lags a cycle behind the operator's last pod (seen under load in a full run)
        PodGroupView volcano = new PodGroupView("scheduling.volcano.sh/v1beta1", "dist-mnist-for-e2e-test", 4,
                JsonNodeFactory.instance.objectNode(), Optional.of("default"), CREATED, "Inqueue",
                Optional.of("not enough pods for the gang: 3 of minMember 4 exist"), false);

        TrainingJobPlan plan = plan(example(TestingJobs.TF_DIST_MNIST), Optional.of(volcano), Optional.empty(), new JobPods(4, 0),
                CREATED.plusSeconds(1));

        assertThat(plan.pending()).isEmpty();
    }

    @Test
    void mustersUnschedulableMessageBecomesThePendingReason() {
        PodGroupView volcano = new PodGroupView("scheduling.volcano.sh/v1beta1", "dist-mnist-for-e2e-test", 4,
                JsonNodeFactory.instance.objectNode(), Optional.of("default"), CREATED, "Inqueue",
                Optional.of("4/4 tasks in gang unschedulable: 2 nodes have too little cpu"), false);

        TrainingJobPlan plan = plan(example(TestingJobs.TF_DIST_MNIST), Optional.of(volcano), Optional.empty(), new JobPods(4, 0),
                CREATED.plusSeconds(1));

        assertThat(plan.pending()).contains("Muster: 4/4 tasks in gang unschedulable: 2 nodes have too little cpu");
    }

    @Test
    void noReasonIsGivenWhileTheOperatorIsStillMakingTheGangsPods() {
        PodGroupView volcano = new PodGroupView("scheduling.volcano.sh/v1beta1", "dist-mnist-for-e2e-test", 4,
                JsonNodeFactory.instance.objectNode(), Optional.of("default"), CREATED, "Inqueue",
                Optional.of("not enough pods for the gang: 3 of minMember 4 exist"), false);

        TrainingJobPlan plan = plan(example(TestingJobs.TF_DIST_MNIST), Optional.of(volcano), Optional.empty(), new JobPods(3, 0),
                CREATED.plusSeconds(1));

        assertThat(plan.pending()).isEmpty();
    }

    @Test
    void aPodGroupWaitingForAdmissionIsToldOnlyAfterTheGracePeriod() {
        PodGroupView volcano = podGroup("scheduling.volcano.sh/v1beta1", 4, "Pending");

        TrainingJobPlan early = plan(example(TestingJobs.TF_DIST_MNIST), Optional.of(volcano), Optional.empty(), new JobPods(0, 0),
                CREATED.plusSeconds(1));
        TrainingJobPlan late = plan(example(TestingJobs.TF_DIST_MNIST), Optional.of(volcano), Optional.empty(), new JobPods(0, 0),
                CREATED.plus(TrainingJobPlanner.ADMISSION_GRACE));

        assertThat(early.pending()).isEmpty();
        assertThat(early.recheckAfter()).contains(TrainingJobPlanner.ADMISSION_GRACE.minusSeconds(1));
        assertThat(late.pending()).contains("Muster has not admitted PodGroup dist-mnist-for-e2e-test to queue default yet (phase Pending),"
                + " so its pods are not created yet: the training operator, or native mode, waits for admission");
    }

    @Test
    void aGangNotPlacedWithinItsScheduleTimeoutTimesOut() {
        ObjectNode job = example(TestingJobs.PYTORCH_CPU_DEMO);
        schedulingPolicy(job).put("scheduleTimeoutSeconds", 30);
        Optional<PodGroupView> coscheduling = Optional.of(podGroup("scheduling.x-k8s.io/v1alpha1", 2, ""));

        TrainingJobPlan before = plan(job, Optional.empty(), coscheduling, new JobPods(2, 0), CREATED.plusSeconds(10));
        TrainingJobPlan after = plan(job, Optional.empty(), coscheduling, new JobPods(2, 0), CREATED.plusSeconds(30));

        assertThat(before.timedOut()).isEmpty();
        assertThat(before.recheckAfter()).contains(Duration.ofSeconds(20));
        assertThat(after.timedOut()).contains("gang of 2 not placed within scheduleTimeoutSeconds=30 (0 of 2 pods bound);"
                + " Muster holds nothing for it and keeps trying");
        assertThat(after.recheckAfter()).isEmpty();
    }

    @Test
    void aPlacedGangNeitherWaitsNorTimesOut() {
        ObjectNode job = example(TestingJobs.PYTORCH_CPU_DEMO);
        schedulingPolicy(job).put("scheduleTimeoutSeconds", 30);

        TrainingJobPlan plan = plan(job, Optional.of(podGroup("scheduling.volcano.sh/v1beta1", 2, "Running")), Optional.empty(),
                new JobPods(2, 2), CREATED.plusSeconds(60));

        assertThat(plan.pending()).isEmpty();
        assertThat(plan.timedOut()).isEmpty();
        assertThat(plan.recheckAfter()).isEmpty();
    }

    @Test
    void aJobTheBridgeSuspendedIsResumedOnceItsInputIsGood() {
        ObjectNode job = example(TestingJobs.TF_DIST_MNIST);
        ((ObjectNode) job.path("spec")).with("runPolicy").put("suspend", true);
        job.with("metadata").with("annotations").put(KubeflowApi.SUSPENDED_BY_MUSTER, "spec.runPolicy.schedulingPolicy.queue");
        ObjectNode suspendedByUser = example(TestingJobs.TF_DIST_MNIST);
        ((ObjectNode) suspendedByUser.path("spec")).with("runPolicy").put("suspend", true);

        assertThat(plan(job, Optional.empty(), Optional.empty(), new JobPods(0, 0), CREATED).resume()).isTrue();
        assertThat(plan(suspendedByUser, Optional.empty(), Optional.empty(), new JobPods(0, 0), CREATED).resume()).isFalse();
    }

    @Test
    void aFinishedJobNeedsNothing() {
        ObjectNode job = example(TestingJobs.TF_DIST_MNIST);
        schedulingPolicy(job).put("queue", "nope");
        job.with("status").putArray("conditions").addObject().put("type", "Succeeded").put("status", "True");

        assertThat(plan(job, Optional.empty(), Optional.empty(), new JobPods(0, 0), CREATED)).isEqualTo(TrainingJobPlan.NOTHING);
    }

    @Test
    void aPsWorkerTfJobOnTheVolcanoPathGetsTheDefaultTaskTopology() {
        TrainingJobPlan plan = plan(example(TestingJobs.TF_DIST_MNIST), Optional.of(podGroup("scheduling.volcano.sh/v1beta1", 4, "Inqueue")),
                Optional.empty(), new JobPods(0, 0), CREATED);

        assertThat(plan.podGroupAnnotations()).containsExactly(Map.entry("volcano.sh/task-topology-affinity", "ps,worker"));
    }

    @Test
    void twoParameterServersAreAlsoKeptApartSoThatEachGetsItsOwnWorkers() {
        ObjectNode job = example(TestingJobs.TF_DIST_MNIST);
        TestingJobs.replicaSpec(job, "PS").put("replicas", 2);

        TrainingJobPlan plan = plan(job, Optional.of(podGroup("scheduling.volcano.sh/v1beta1", 5, "Inqueue")), Optional.empty(),
                new JobPods(0, 0), CREATED);

        assertThat(plan.podGroupAnnotations()).containsExactly(Map.entry("volcano.sh/task-topology-affinity", "ps,worker"),
                Map.entry("volcano.sh/task-topology-anti-affinity", "ps"));
    }

    @Test
    void theUsersOwnTaskTopologyIsLeftAsItIs() {
        ObjectNode podGroup = JsonNodeFactory.instance.objectNode().put("apiVersion", "scheduling.volcano.sh/v1beta1");
        podGroup.with("metadata").put("name", "dist-mnist-for-e2e-test").with("annotations")
                .put("volcano.sh/task-topology-anti-affinity", "worker");
        podGroup.with("spec").put("minMember", 4);

        TrainingJobPlan plan = plan(example(TestingJobs.TF_DIST_MNIST), Optional.of(PodGroupView.of(podGroup)), Optional.empty(),
                new JobPods(0, 0), CREATED);

        assertThat(PodGroupView.of(podGroup).hasTaskTopology()).isTrue();
        assertThat(plan.podGroupAnnotations()).isEmpty();
    }

    @Test
    void noDefaultTopologyWithoutRolesOnPodsOrWithoutParameterServers() {
        // on the scheduler-plugins path the operator gives pods no volcano.sh/task-spec; a PyTorchJob has no PS
        TrainingJobPlan schedulerPlugins = plan(example(TestingJobs.TF_DIST_MNIST), Optional.empty(),
                Optional.of(podGroup("scheduling.x-k8s.io/v1alpha1", 4, "")), new JobPods(0, 0), CREATED);
        TrainingJobPlan pyTorch = plan(example(TestingJobs.PYTORCH_CPU_DEMO), Optional.of(podGroup("scheduling.volcano.sh/v1beta1", 2, "Inqueue")),
                Optional.empty(), new JobPods(0, 0), CREATED);

        assertThat(schedulerPlugins.podGroupAnnotations()).isEmpty();
        assertThat(pyTorch.podGroupAnnotations()).isEmpty();
    }

    private static TrainingJobPlan plan(ObjectNode job, Optional<PodGroupView> volcano, Optional<PodGroupView> coscheduling, JobPods pods,
            Instant now) {
        return TrainingJobPlanner.plan(TrainingJobReader.read(TestingJobs.kindOf(job), job), QUEUES, volcano, coscheduling, pods,
                JsonNodeFactory.instance.objectNode(), now);
    }

    private static PodGroupView podGroup(String apiVersion, int minMember, String phase) {
        ObjectNode minResources = JsonNodeFactory.instance.objectNode().put("cpu", "4");
        return new PodGroupView(apiVersion, TestingJobs.example(TestingJobs.TF_DIST_MNIST).path("metadata").path("name").asText(), minMember,
                minResources, Optional.empty(), CREATED, phase, Optional.empty(), false);
    }
}
