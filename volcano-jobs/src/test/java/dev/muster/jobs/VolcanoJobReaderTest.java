package dev.muster.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.graph.Join;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class VolcanoJobReaderTest {
    @ParameterizedTest(name = "{0} reads without problems")
    @ValueSource(strings = {"mpi-ssh-svc.yaml", "tensorflow-ps-worker.yaml", "task-dependencies.yaml"})
    void fixturesAreValid(String fixture) {
        JobReadResult<VolcanoJob> result = VolcanoJobReader.read(TestingJobs.fixtureJobManifest(fixture));

        assertThat(result.problems()).isEmpty();
        assertThat(JobValidator.validate(result.orElseThrow().spec())).isEmpty();
    }

    @Test
    void readsVolcanoFieldsAndPolicies() {
        VolcanoJob job = TestingJobs.fixtureJob("tensorflow-ps-worker.yaml");

        assertThat(job.metadata().key()).isEqualTo("ml/tensorflow-dist-mnist");
        assertThat(job.spec().queue()).isEqualTo("research");
        assertThat(job.spec().maxRetry()).isEqualTo(5);
        assertThat(job.spec().priorityClassName()).isEqualTo("high-priority");
        assertThat(job.spec().tasks()).extracting(TaskSpec::name).containsExactly("ps", "worker");
        assertThat(job.spec().task("worker").orElseThrow().policies()).containsExactly(
                LifecyclePolicy.onEvent(JobEvent.TASK_COMPLETED, JobAction.COMPLETE_JOB),
                LifecyclePolicy.onEvent(JobEvent.POD_FAILED, JobAction.RESTART_JOB));
        assertThat(job.spec().plugins()).containsKeys("env", "tensorflow", "svc");
        assertThat(job.status()).isEqualTo(JobStatus.NEW);
    }

    @Test
    void appliesTheWebhookDefaults() {
        VolcanoJob job = TestingJobs.job("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: j}
                spec:
                  plugins: {pytorch: []}
                  tasks:
                  - replicas: 2
                    minAvailable: 1
                    template: {spec: {containers: [{name: c, image: i}]}}
                  - replicas: 3
                    template: {spec: {containers: [{name: c, image: i}]}}
                    dependsOn: {name: [default0], iteration: any}
                """);

        assertThat(job.namespace()).isEqualTo("default");
        assertThat(job.spec().queue()).isEqualTo("default");
        assertThat(job.spec().schedulerName()).isEqualTo("volcano");
        assertThat(job.spec().maxRetry()).isEqualTo(3);
        assertThat(job.spec().minAvailable()).isEqualTo(4);
        assertThat(job.spec().tasks()).extracting(TaskSpec::name).containsExactly("default0", "default1");
        assertThat(job.spec().tasks().get(1).dependsOn().orElseThrow().iteration()).isEqualTo(Join.ANY);
        assertThat(job.spec().plugins()).containsKeys("pytorch", "svc");
    }

    static Stream<Arguments> badJobs() {
        String template = "template: {spec: {containers: [{name: c, image: i}]}}";
        return Stream.of(
                Arguments.of("minAvailable above the replicas", "minAvailable: 5\n  tasks:\n  - {name: a, replicas: 2, " + template + "}",
                        "spec.minAvailable: 5 exceeds the 2 replicas of all tasks"),
                Arguments.of("a task without a template", "tasks:\n  - {name: a, replicas: 1}",
                        "spec.tasks[0].template: task 'a' has no pod template"),
                Arguments.of("a duplicate task name", "tasks:\n  - {name: a, replicas: 1, " + template + "}\n  - {name: a, replicas: 1, " + template + "}",
                        "spec.tasks[1].name: duplicate task name 'a'"),
                Arguments.of("dependsOn an unknown task", "tasks:\n  - {name: a, replicas: 1, dependsOn: {name: [x]}, " + template + "}",
                        "spec.tasks[].dependsOn: task 'a' depends on unknown task 'x'"),
                Arguments.of("dependsOn in a cycle", "tasks:\n  - {name: a, replicas: 1, dependsOn: {name: [b]}, " + template + "}\n"
                        + "  - {name: b, replicas: 1, dependsOn: {name: [a]}, " + template + "}",
                        "spec.tasks[].dependsOn: cycle: a -> b -> a"),
                Arguments.of("an unknown policy event", "policies: [{event: PodExploded, action: RestartJob}]\n  tasks:\n  - {name: a, replicas: 1, " + template + "}",
                        "spec.policies[0].event: unknown event 'PodExploded'"),
                Arguments.of("an unknown policy action", "tasks:\n  - {name: a, replicas: 1, policies: [{event: PodFailed, action: Reboot}], " + template + "}",
                        "spec.tasks[0].policies[0].action: unknown action 'Reboot'"),
                Arguments.of("an exit code and an event together", "policies: [{event: PodFailed, exitCode: 3, action: AbortJob}]\n  tasks:\n  - {name: a, replicas: 1, " + template + "}",
                        "spec.policies[0].exitCode: a policy has either events or an exit code, not both"),
                Arguments.of("a misspelt field", "minAvaliable: 1\n  tasks:\n  - {name: a, replicas: 1, " + template + "}",
                        "spec.minAvaliable: unknown field"),
                Arguments.of("replicas that are not a number", "tasks:\n  - {name: a, replicas: two, " + template + "}",
                        "spec.tasks[0].replicas: 'two' is not an integer"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badJobs")
    void badInputIsNamed(String description, String spec, String expected) {
        JobReadResult<VolcanoJob> result = VolcanoJobReader.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: bad, namespace: ns}
                spec:
                  %s
                """.formatted(spec));

        List<String> problems = result.object()
                .map(job -> Stream.concat(result.problems().stream(), JobValidator.validate(job.spec()).stream()).toList())
                .orElse(result.problems());
        assertThat(problems).anySatisfy(problem -> assertThat(problem).contains(expected));
    }

    @Test
    void readsTheStatusVolcanoWrote() {
        VolcanoJob job = VolcanoJobReader.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: j}
                spec:
                  tasks: [{name: a, replicas: 2, template: {spec: {containers: [{name: c, image: i}]}}}]
                status:
                  state: {phase: Running, lastTransitionTime: "2026-01-01T00:01:00Z"}
                  minAvailable: 2
                  running: 2
                  retryCount: 1
                  version: 2
                  runningDuration: 1m30s
                  taskStatusCount: {a: {phase: {Running: 2}}}
                  controlledResources: {plugin-svc: svc}
                  conditions: [{status: Pending, lastTransitionTime: "2026-01-01T00:00:00Z"}]
                """).orElseThrow();

        assertThat(job.status().currentPhase()).isEqualTo(JobPhase.RUNNING);
        assertThat(job.status().counts().running()).isEqualTo(2);
        assertThat(job.status().taskCount("a", PodPhase.RUNNING)).isEqualTo(2);
        assertThat(job.status().retryCount()).isEqualTo(1);
        assertThat(job.status().runningDuration()).contains(java.time.Duration.ofSeconds(90));
        assertThat(job.status().conditions()).hasSize(1);
    }
}
