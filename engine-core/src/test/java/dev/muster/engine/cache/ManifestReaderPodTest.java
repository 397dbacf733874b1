package dev.muster.engine.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.cache.ManifestProblem.Severity;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.LabelRequirement;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.NodeSelectorTerm;
import dev.muster.engine.model.PreferredSchedulingTerm;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import dev.muster.engine.model.Toleration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How a Pod becomes a Task, and how pods join jobs. */
class ManifestReaderPodTest {
    private static final ManifestReader READER = new ManifestReader(Set.of("volcano"));
    private static final String POD_GROUP = """
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: PodGroup
            metadata: {name: train, namespace: ml}
            spec: {minMember: 1}
            ---
            """;

    private static ManifestResult read(String yaml) {
        return READER.read("cluster.yaml", yaml);
    }

    /** The one task of the one job. */
    private static Task onlyTask(ManifestResult result) {
        assertThat(result.snapshot().jobs()).hasSize(1);
        Job job = result.snapshot().jobs().values().iterator().next();
        assertThat(job.tasks()).hasSize(1);
        return job.tasks().get(0);
    }

    private static String pod(String metadata, String spec) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: train-0
                  namespace: ml
                %s
                spec:
                  schedulerName: volcano
                %s
                """.formatted(metadata.indent(2), (spec.contains("containers:") ? spec : spec + "\ncontainers: [{name: main}]").indent(2));
    }

    @Test
    void mapsEveryField() {
        String yaml = POD_GROUP + pod("""
                uid: u-1
                creationTimestamp: "2026-01-02T03:04:05Z"
                labels: {app: train, volcano.sh/task-spec: label-role}
                annotations: {scheduling.k8s.io/group-name: train, volcano.sh/task-spec: worker}
                """, """
                nodeName: n1
                priority: 7
                priorityClassName: high
                preemptionPolicy: Never
                schedulingGates: [{name: wait}]
                nodeSelector: {zone: a}
                affinity:
                  nodeAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                      nodeSelectorTerms:
                        - matchExpressions: [{key: gpu, operator: In, values: [a100, h100]}]
                          matchFields: [{key: metadata.name, operator: NotIn, values: [n9]}]
                    preferredDuringSchedulingIgnoredDuringExecution:
                      - weight: 40
                        preference:
                          matchExpressions: [{key: zone, operator: In, values: [a]}]
                tolerations:
                  - {key: dedicated, operator: Exists, effect: NoSchedule}
                  - {key: team, value: ml}
                containers:
                  - name: main
                    resources: {requests: {cpu: 500m, memory: 1Gi, nvidia.com/gpu: "2"}}
                """) + "status: {phase: Running}\n";

        ManifestResult result = read(yaml);

        assertThat(result.problems()).isEmpty();
        Task task = onlyTask(result);
        assertThat(task.id()).isEqualTo(new TaskId("ml", "train-0"));
        assertThat(task.uid()).isEqualTo("u-1");
        assertThat(task.job()).isEqualTo(new JobId("ml", "train"));
        assertThat(task.role()).isEqualTo("worker");
        assertThat(task.priority()).isEqualTo(7);
        assertThat(task.priorityClassName()).isEqualTo("high");
        assertThat(task.request()).isEqualTo(Resources.of(500, 1073741824.0).withScalar("nvidia.com/gpu", 2000));
        assertThat(task.initRequest()).isEqualTo(task.request());
        assertThat(task.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(task.node()).contains(new NodeName("n1"));
        assertThat(task.created()).isEqualTo(Instant.parse("2026-01-02T03:04:05Z"));
        assertThat(task.preemptable()).isTrue();
        assertThat(task.preemptionNever()).isTrue();
        assertThat(task.gated()).isTrue();
        assertThat(task.placement().nodeSelector()).isEqualTo(ImmutableMap.of("zone", "a"));
        assertThat(task.placement().requiredNodeAffinity()).containsExactly(new NodeSelectorTerm(
                ImmutableList.of(new LabelRequirement("gpu", "In", ImmutableList.of("a100", "h100"))),
                ImmutableList.of(new LabelRequirement("metadata.name", "NotIn", ImmutableList.of("n9")))));
        assertThat(task.placement().tolerations()).containsExactly(
                new Toleration("dedicated", "Exists", "", "NoSchedule"),
                new Toleration("team", "Equal", "ml", ""));
        assertThat(task.placement().preferredNodeAffinity()).containsExactly(new PreferredSchedulingTerm(40, new NodeSelectorTerm(
                ImmutableList.of(new LabelRequirement("zone", "In", ImmutableList.of("a"))), ImmutableList.of())));
        assertThat(task.labels()).containsEntry("app", "train");
        assertThat(task.annotations()).containsEntry("scheduling.k8s.io/group-name", "train");
    }

    @Test
    void defaultsWhatIsUnset() {
        Task task = onlyTask(read(POD_GROUP + pod("annotations: {scheduling.k8s.io/group-name: train}", "containers: [{name: main}]")));

        assertThat(task.uid()).isEqualTo("ml-train-0");
        assertThat(task.role()).isEmpty();
        assertThat(task.priority()).isEqualTo(1);
        assertThat(task.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(task.node()).isEmpty();
        assertThat(task.created()).isEqualTo(Instant.EPOCH);
        assertThat(task.preemptable()).isTrue();
        assertThat(task.bestEffort()).isTrue();
        assertThat(task.placement()).isEqualTo(Placement.ANYWHERE);
    }

    static Stream<Arguments> quantities() {
        return Stream.of(
                Arguments.of("cpu in millicores", "cpu: 500m", Resources.of(500, 0)),
                Arguments.of("whole cpus", "cpu: \"2\"", Resources.of(2000, 0)),
                Arguments.of("memory in bytes", "memory: 1Gi", Resources.of(0, 1073741824.0)),
                Arguments.of("decimal memory", "memory: 1G", Resources.of(0, 1e9)),
                Arguments.of("extended resources in milli-units", "nvidia.com/gpu: \"2\"",
                        Resources.EMPTY.withScalar("nvidia.com/gpu", 2000)),
                Arguments.of("hugepages are scalars", "hugepages-2Mi: 4Mi", Resources.EMPTY.withScalar("hugepages-2Mi", 4194304000.0)),
                Arguments.of("ephemeral storage is ignored", "ephemeral-storage: 1Gi", Resources.EMPTY),
                Arguments.of("pods is not a pod resource", "pods: \"1\"", Resources.EMPTY),
                Arguments.of("a fraction of a millicore rounds up", "cpu: \"0.0001\"", Resources.of(1, 0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("quantities")
    void readsQuantitiesInTheSchedulersUnits(String description, String request, Resources expected) {
        Task task = onlyTask(read(POD_GROUP + pod("annotations: {scheduling.k8s.io/group-name: train}",
                "containers: [{name: main, resources: {requests: {" + request + "}}}]")));

        assertThat(task.request()).isEqualTo(expected);
    }

    @Test
    void sumsContainersDefaultsRequestsToLimitsAndTakesTheLargestInitContainer() {
        String spec = """
                overhead: {cpu: 100m}
                initContainers:
                  - {name: setup, resources: {requests: {cpu: "3", memory: 1Gi}}}
                  - {name: proxy, restartPolicy: Always, resources: {requests: {cpu: 200m}}}
                  - {name: late, resources: {requests: {cpu: "1"}}}
                containers:
                  - {name: a, resources: {requests: {cpu: "1"}, limits: {cpu: "2", memory: 2Gi}}}
                  - {name: b, resources: {limits: {cpu: 500m, nvidia.com/gpu: "1"}}}
                """;

        Task task = onlyTask(read(POD_GROUP + pod("annotations: {scheduling.k8s.io/group-name: train}", spec)));

        // a: cpu 1 (its request), memory 2Gi (its limit); b: cpu 500m and a gpu from its limits
        Resources containers = Resources.of(1500, 2 * 1073741824.0).withScalar("nvidia.com/gpu", 1000);
        // the sidecar runs as long as the pod; the overhead is added once
        Resources request = containers.add(Resources.of(200, 0)).add(Resources.of(100, 0));
        assertThat(task.request()).isEqualTo(request);
        // setup needs 3 cpus before anything else runs
        assertThat(task.initRequest()).isEqualTo(request.max(Resources.of(3000, 1073741824.0)));
    }

    @Test
    void aBadQuantityLeavesThePodOut() {
        String yaml = POD_GROUP + pod("annotations: {scheduling.k8s.io/group-name: train}", """
                containers:
                  - {name: a, resources: {requests: {cpu: "-1"}}}
                  - {name: b, resources: {limits: {memory: 12XB}}}
                """);

        ManifestResult result = read(yaml);

        assertThat(result.snapshot().jobs().get(new JobId("ml", "train")).tasks()).isEmpty();
        assertThat(result.problems()).extracting(ManifestProblem::describe).containsExactly(
                "cluster.yaml[0] PodGroup ml/train: spec.minMember: minMember 1 is more than its 0 pods",
                "cluster.yaml[1] Pod ml/train-0: spec.containers[0].resources.requests.cpu: '-1' is negative",
                "cluster.yaml[1] Pod ml/train-0: spec.containers[1].resources.limits.memory: '12XB' is not a Kubernetes quantity");
    }

    static Stream<Arguments> timestamps() {
        return Stream.of(
                Arguments.of("the API server's form", "2026-01-02T03:04:05Z", "2026-01-02T03:04:05Z"),
                Arguments.of("fractional seconds", "2026-01-02T03:04:05.250Z", "2026-01-02T03:04:05.250Z"),
                Arguments.of("an offset", "2026-01-02T05:04:05+02:00", "2026-01-02T03:04:05Z"),
                Arguments.of("a leap day", "2028-02-29T00:00:00Z", "2028-02-29T00:00:00Z"),
                Arguments.of("a day that does not exist", "2026-02-30T00:00:00Z", ""),
                Arguments.of("hour 24", "2026-01-02T24:00:00Z", ""),
                Arguments.of("a sign where a digit belongs", "2026-01-02T03:04:+5Z", ""),
                Arguments.of("no zone", "2026-01-02T03:04:05", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("timestamps")
    void readsCreationTimestampsAsRfc3339(String description, String timestamp, String expected) {
        ManifestResult result = read(POD_GROUP + pod("""
                creationTimestamp: "%s"
                annotations: {scheduling.k8s.io/group-name: train}
                """.formatted(timestamp), "containers: [{name: main}]"));

        if (expected.isEmpty()) {
            assertThat(result.problems()).extracting(ManifestProblem::describe).contains(
                    "cluster.yaml[1] Pod ml/train-0: metadata.creationTimestamp: '" + timestamp + "' is not an RFC 3339 timestamp");
        } else {
            assertThat(onlyTask(result).created()).isEqualTo(Instant.parse(expected));
        }
    }

    static Stream<Arguments> statuses() {
        return Stream.of(
                Arguments.of("Pending without a node is Pending", "Pending", false, false, TaskStatus.PENDING),
                Arguments.of("Pending on a node is Bound", "Pending", true, false, TaskStatus.BOUND),
                Arguments.of("no phase is Pending", "", false, false, TaskStatus.PENDING),
                Arguments.of("Running", "Running", true, false, TaskStatus.RUNNING),
                Arguments.of("Succeeded", "Succeeded", true, false, TaskStatus.SUCCEEDED),
                Arguments.of("Failed", "Failed", true, false, TaskStatus.FAILED),
                Arguments.of("Unknown", "Unknown", true, false, TaskStatus.UNKNOWN),
                Arguments.of("a Running pod being deleted is Releasing", "Running", true, true, TaskStatus.RELEASING),
                Arguments.of("a Pending pod being deleted is Releasing", "Pending", true, true, TaskStatus.RELEASING));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("statuses")
    void mapsThePhaseAsVolcanoDoes(String description, String phase, boolean onNode, boolean deleting, TaskStatus expected) {
        String metadata = "annotations: {scheduling.k8s.io/group-name: train}"
                + (deleting ? "\ndeletionTimestamp: \"2026-01-01T00:00:00Z\"" : "");
        String status = phase.isEmpty() ? "" : "status: {phase: " + phase + "}\n";
        String yaml = POD_GROUP + pod(metadata, onNode ? "nodeName: n1" : "") + status;

        assertThat(onlyTask(read(yaml)).status()).isEqualTo(expected);
    }

    @Test
    void readsPreemptableAnnotationBeforeLabel() {
        String both = "labels: {volcano.sh/preemptable: \"true\"}\n"
                + "annotations: {scheduling.k8s.io/group-name: train, volcano.sh/preemptable: \"false\"}";
        String label = "labels: {volcano.sh/preemptable: \"false\"}\nannotations: {scheduling.k8s.io/group-name: train}";
        String invalid = "annotations: {scheduling.k8s.io/group-name: train, volcano.sh/preemptable: maybe}";

        assertThat(onlyTask(read(POD_GROUP + pod(both, ""))).preemptable()).isFalse();
        assertThat(onlyTask(read(POD_GROUP + pod(label, ""))).preemptable()).isFalse();
        ManifestResult result = read(POD_GROUP + pod(invalid, ""));
        assertThat(onlyTask(result).preemptable()).isFalse();
        assertThat(result.problems()).extracting(ManifestProblem::describe).containsExactly(
                "cluster.yaml[1] Pod ml/train-0: metadata.annotations.volcano.sh/preemptable: "
                        + "'maybe' is not a boolean; read as false, as Volcano does");
    }

    @Test
    void theTaskPriorityAnnotationOverridesSpecPriority() {
        String metadata = "annotations: {scheduling.k8s.io/group-name: train, volcano.sh/task-priority: \"42\"}";

        assertThat(onlyTask(read(POD_GROUP + pod(metadata, "priority: 7"))).priority()).isEqualTo(42);
    }

    @Test
    void aPodWithoutAGroupGetsAnAutomaticPodGroup() {
        String yaml = pod("""
                uid: abc
                annotations: {scheduling.volcano.sh/queue-name: research}
                """, """
                priorityClassName: high
                containers: [{name: main, resources: {requests: {cpu: "1"}}}]
                """) + """
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: high}
                value: 1000
                ---
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: research}
                """;

        ManifestResult result = read(yaml);

        assertThat(result.problems()).isEmpty();
        Job job = result.snapshot().jobs().get(new JobId("ml", "podgroup-abc"));
        assertThat(job.minMember()).isEqualTo(1);
        assertThat(job.queue()).isEqualTo(new QueueName("research"));
        assertThat(job.minResources()).contains(Resources.of(1000, 0));
        assertThat(job.phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(job.priorityClassName()).isEqualTo("high");
        assertThat(job.priority()).isEqualTo(1000);
        assertThat(job.tasks()).extracting(Task::id).containsExactly(new TaskId("ml", "train-0"));
    }

    @Test
    void podsOfOneControllerShareTheirAutomaticPodGroup() {
        String owner = "ownerReferences: [{kind: ReplicaSet, name: web-1, uid: rs-1, controller: true}]";
        String yaml = pod(owner, "nodeName: n1") + "status: {phase: Running}\n---\n" + pod(owner, "").replace("train-0", "train-1");

        ManifestResult result = read(yaml);

        Job job = result.snapshot().jobs().get(new JobId("ml", "podgroup-rs-1"));
        assertThat(job.tasks()).extracting(task -> task.id().name()).containsExactly("train-0", "train-1");
        // one of its pods already runs, so the group is long past admission
        assertThat(job.phase()).isEqualTo(PodGroupPhase.RUNNING);
    }

    @Test
    void aPodNamingAMissingPodGroupIsNotScheduledButHoldsItsNode() {
        String yaml = pod("annotations: {scheduling.k8s.io/group-name: ghost}", "nodeName: n1") + "status: {phase: Running}\n";

        ManifestResult result = read(yaml);

        assertThat(result.snapshot().jobs()).isEmpty();
        assertThat(result.snapshot().otherTasks()).extracting(Task::id).containsExactly(new TaskId("ml", "train-0"));
        assertThat(result.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.severity()).isEqualTo(Severity.WARNING);
            assertThat(problem.describe()).isEqualTo("cluster.yaml[0] Pod ml/train-0: metadata.annotations.scheduling.k8s.io/group-name: "
                    + "PodGroup ml/ghost does not exist; the pod is not scheduled");
        });
    }

    @Test
    void otherSchedulersPodsCountOnlyWhereTheyRun() {
        String running = pod("", "nodeName: n1\ncontainers: [{name: main, resources: {requests: {cpu: \"1\"}}}]")
                .replace("schedulerName: volcano", "schedulerName: default-scheduler") + "status: {phase: Running}\n";
        String pending = pod("", "").replace("  schedulerName: volcano\n", "").replace("train-0", "train-1");
        String finished = running.replace("train-0", "train-2").replace("Running", "Succeeded");

        ManifestResult result = read(running + "---\n" + pending + "---\n" + finished);

        assertThat(result.problems()).isEmpty();
        assertThat(result.snapshot().jobs()).isEmpty();
        assertThat(result.snapshot().otherTasks()).singleElement().satisfies(task -> {
            assertThat(task.id()).isEqualTo(new TaskId("ml", "train-0"));
            assertThat(task.request()).isEqualTo(Resources.of(1000, 0));
            assertThat(task.node()).isEqualTo(Optional.of(new NodeName("n1")));
        });
    }

    @Test
    void coschedulingPodsJoinTheirPodGroupByLabel() {
        String yaml = """
                apiVersion: scheduling.x-k8s.io/v1alpha1
                kind: PodGroup
                metadata: {name: train, namespace: ml}
                spec: {minMember: 1, minResources: {cpu: "2"}, scheduleTimeoutSeconds: 60}
                ---
                """ + pod("labels: {scheduling.x-k8s.io/pod-group: train}", "");

        ManifestResult result = read(yaml);

        assertThat(result.problems()).isEmpty();
        Job job = result.snapshot().jobs().get(new JobId("ml", "train"));
        assertThat(job.queue()).isEqualTo(new QueueName("default"));
        assertThat(job.minResources()).contains(Resources.of(2000, 0));
        assertThat(job.tasks()).hasSize(1);
    }
}
