package dev.muster.engine.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Task;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Kubernetes' Workload API PodGroup ({@code scheduling.k8s.io/v1alpha2}) and the pods that name it, read as a gang. */
class WorkloadPodGroupConverterTest {
    private static final ManifestReader READER = new ManifestReader(Set.of("muster"));
    private static final JobId GANG = new JobId("some-ns", "training-job-workers-pg");

    static String fixture(String path) {
        try (InputStream in = WorkloadPodGroupConverterTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String podGroup(String spec) {
        return """
                apiVersion: scheduling.k8s.io/v1alpha2
                kind: PodGroup
                metadata: {name: workers, namespace: ml}
                spec:
                %s
                """.formatted(spec.indent(2));
    }

    private static ImmutableList<String> describe(ManifestResult result) {
        return result.problems().stream().map(ManifestProblem::describe).collect(ImmutableList.toImmutableList());
    }

    @Test
    void theDocumentedGangIsAJobOfMinCountWithItsFourPods() {
        // when
        ManifestResult result = READER.read("gang-podgroup.yaml", fixture("/workload-api/gang-podgroup.yaml"));

        // then
        assertThat(result.problems()).isEmpty();
        Job job = result.snapshot().jobs().get(GANG);
        assertThat(job.minMember()).isEqualTo(4);
        assertThat(job.queue()).isEqualTo(new QueueName("default"));
        assertThat(job.minResources()).isEmpty();
        assertThat(job.uid()).isEqualTo("1c6e2b7a-5d4f-4e3a-9b8c-7d6e5f4a3b2c");
        assertThat(job.phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(job.tasks()).extracting(task -> task.id().name())
                .containsExactly("training-job-worker-0", "training-job-worker-1", "training-job-worker-2", "training-job-worker-3");
        assertThat(result.snapshot().jobs()).containsOnlyKeys(GANG);
    }

    @Test
    void aBasicPolicySchedulesPodByPodAndTheQueueAnnotationPicksTheQueue() {
        // given
        String yaml = """
                apiVersion: scheduling.k8s.io/v1alpha2
                kind: PodGroup
                metadata:
                  name: workers
                  namespace: ml
                  annotations: {scheduling.volcano.sh/queue-name: research}
                spec:
                  schedulingPolicy: {basic: {}}
                  priorityClassName: high
                ---
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: research}
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: high}
                value: 1000
                """;

        // when
        ManifestResult result = READER.read("cluster.yaml", yaml);

        // then
        assertThat(result.errors()).isEmpty();
        Job job = result.snapshot().jobs().get(new JobId("ml", "workers"));
        assertThat(job.minMember()).isEqualTo(1);
        assertThat(job.queue()).isEqualTo(new QueueName("research"));
        assertThat(job.priority()).isEqualTo(1000);
        assertThat(job.problems()).isEmpty();
    }

    static Stream<Arguments> badPolicies() {
        return Stream.of(
                Arguments.of("no policy at all", "podGroupTemplateRef: null",
                        "spec.schedulingPolicy: is required: exactly one of basic, gang"),
                Arguments.of("an empty policy", "schedulingPolicy: {}",
                        "spec.schedulingPolicy: sets no policy; exactly one of basic, gang must be set"),
                Arguments.of("both members of the union", "schedulingPolicy: {basic: {}, gang: {minCount: 2}}",
                        "spec.schedulingPolicy: sets both basic and gang; exactly one may be set"),
                Arguments.of("an unknown policy", "schedulingPolicy: {spread: {}}",
                        "spec.schedulingPolicy.spread: unknown scheduling policy 'spread' (known: basic, gang)"),
                Arguments.of("a gang without minCount", "schedulingPolicy: {gang: {}}",
                        "spec.schedulingPolicy.gang.minCount: is required"),
                Arguments.of("a minCount of zero", "schedulingPolicy: {gang: {minCount: 0}}",
                        "spec.schedulingPolicy.gang.minCount: 0 is less than 1"),
                Arguments.of("a negative minCount", "schedulingPolicy: {gang: {minCount: -3}}",
                        "spec.schedulingPolicy.gang.minCount: -3 is less than 1"),
                Arguments.of("a minCount that is not an integer", "schedulingPolicy: {gang: {minCount: four}}",
                        "spec.schedulingPolicy.gang.minCount: 'four' is not an integer"),
                Arguments.of("a gang that is not a map", "schedulingPolicy: {gang: 4}",
                        "spec.schedulingPolicy.gang: expected a map, found '4'"),
                Arguments.of("a topology constraint Muster cannot honour",
                        "schedulingPolicy: {gang: {minCount: 2}}\nschedulingConstraints: {topology: [{key: topology.kubernetes.io/rack}]}",
                        "spec.schedulingConstraints.topology[0].key: Muster does not honour Workload API topology constraints yet "
                                + "(key 'topology.kubernetes.io/rack'); the PodGroup stays pending rather than be placed across domains"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badPolicies")
    void aBadPodGroupIsKeptPendingWithAnErrorNamingItTheFieldAndTheValue(String name, String spec, String problem) {
        // given
        String yaml = podGroup(spec) + """
                ---
                apiVersion: scheduling.k8s.io/v1alpha2
                kind: PodGroup
                metadata: {name: good, namespace: ml}
                spec: {schedulingPolicy: {gang: {minCount: 2}}}
                """;

        // when
        ManifestResult result = READER.read("cluster.yaml", yaml);

        // then
        assertThat(result.errors()).extracting(ManifestProblem::describe).containsExactly("cluster.yaml[0] PodGroup ml/workers: " + problem);
        assertThat(result.snapshot().jobs().get(new JobId("ml", "workers")).problems()).containsExactly(problem);
        Job good = result.snapshot().jobs().get(new JobId("ml", "good"));
        assertThat(good.minMember()).isEqualTo(2);
        assertThat(good.problems()).isEmpty();
    }

    @Test
    void aPodNamingAPodGroupThatDoesNotExistIsNotScheduledAndSaysWhy() {
        // given
        String yaml = fixture("/workload-api/gang-podgroup.yaml") + """
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: stray-worker, namespace: some-ns}
                spec:
                  schedulerName: muster
                  schedulingGroup: {podGroupName: missing-pg}
                  containers: [{name: worker, image: pause, resources: {requests: {cpu: "1"}}}]
                """;

        // when
        ManifestResult result = READER.read("cluster.yaml", yaml);

        // then
        assertThat(describe(result)).containsExactly("cluster.yaml[5] Pod some-ns/stray-worker: spec.schedulingGroup.podGroupName: "
                + "PodGroup some-ns/missing-pg does not exist; the pod is not scheduled");
        assertThat(result.snapshot().jobs()).containsOnlyKeys(GANG);
        assertThat(result.snapshot().jobs().get(GANG).tasks()).hasSize(4);
    }

    static Stream<Arguments> badPods() {
        return Stream.of(
                Arguments.of("a scheduling group that names none", "schedulingGroup: {}",
                        "spec.schedulingGroup: names no group: podGroupName is required (known members: podGroupName)"),
                Arguments.of("an empty name", "schedulingGroup: {podGroupName: \"\"}",
                        "spec.schedulingGroup.podGroupName: '' is not a DNS-1123 subdomain (lower case letters, digits, '-' and '.', "
                                + "beginning and ending with a letter or digit)"),
                Arguments.of("a name that is not a DNS subdomain", "schedulingGroup: {podGroupName: Workers_PG}",
                        "spec.schedulingGroup.podGroupName: 'Workers_PG' is not a DNS-1123 subdomain (lower case letters, digits, "
                                + "'-' and '.', beginning and ending with a letter or digit)"),
                Arguments.of("a scheduling group that is not a map", "schedulingGroup: workers",
                        "spec.schedulingGroup: expected a map, found 'workers'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badPods")
    void aPodWithABadSchedulingGroupIsLeftOutWithAnError(String name, String field, String problem) {
        // given
        String yaml = """
                apiVersion: v1
                kind: Pod
                metadata: {name: worker-0, namespace: ml}
                spec:
                  schedulerName: muster
                  %s
                  containers: [{name: worker, image: pause, resources: {requests: {cpu: "1"}}}]
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: other, namespace: ml}
                spec:
                  schedulerName: muster
                  containers: [{name: worker, image: pause, resources: {requests: {cpu: "1"}}}]
                """.formatted(field);

        // when
        ManifestResult result = READER.read("cluster.yaml", yaml);

        // then
        assertThat(describe(result)).containsExactly("cluster.yaml[0] Pod ml/worker-0: " + problem);
        assertThat(result.snapshot().jobs().values()).flatExtracting(Job::tasks).extracting(Task::id)
                .extracting(id -> id.name()).containsExactly("other");
    }

    @Test
    void aPodWhoseAnnotationNamesAnotherGroupJoinsTheAnnotatedOneWithAWarning() {
        // given
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: volcano-pg, namespace: ml}
                spec: {minMember: 1}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: worker-0, namespace: ml, annotations: {scheduling.k8s.io/group-name: volcano-pg}}
                spec:
                  schedulerName: muster
                  schedulingGroup: {podGroupName: workload-pg}
                  containers: [{name: worker, image: pause}]
                """;

        // when
        ManifestResult result = READER.read("cluster.yaml", yaml);

        // then
        assertThat(describe(result)).containsExactly("cluster.yaml[1] Pod ml/worker-0: spec.schedulingGroup.podGroupName: "
                + "names PodGroup 'workload-pg', but metadata.annotations.scheduling.k8s.io/group-name names 'volcano-pg', "
                + "which comes first; the pod joins 'volcano-pg'");
        assertThat(result.snapshot().jobs().get(new JobId("ml", "volcano-pg")).tasks()).hasSize(1);
    }

    @Test
    void aGangWhosePodsRanReadsAsRunningThenCompleted() {
        // given
        String running = fixture("/workload-api/gang-podgroup.yaml").replace("""
                status:
                  phase: Pending""", """
                  nodeName: n1
                status:
                  phase: Running""");
        String finished = running.replace("phase: Running", "phase: Succeeded");
        assertThat(running).contains("nodeName: n1");

        // when
        Job runningJob = READER.read("cluster.yaml", running).snapshot().jobs().get(GANG);
        Job finishedJob = READER.read("cluster.yaml", finished).snapshot().jobs().get(GANG);

        // then
        assertThat(runningJob.phase()).isEqualTo(PodGroupPhase.RUNNING);
        assertThat(finishedJob.phase()).isEqualTo(PodGroupPhase.COMPLETED);
    }
}
