package dev.muster.jobs.controller;

import static dev.muster.jobs.controller.TestingJobStates.NOW;
import static dev.muster.jobs.controller.TestingJobStates.RECONCILER;
import static dev.muster.jobs.controller.TestingJobStates.inPhase;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.jobs.JobPhase;
import dev.muster.jobs.PodPhase;
import dev.muster.jobs.TestingJobs;
import dev.muster.jobs.VolcanoJob;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code dependsOn} on the pipeline fixture: loader, then three preprocessors, then the trainer. */
class TaskDependenciesTest {
    private static ObservedPod pod(String task, int index, PodPhase phase) {
        return ObservedPod.of("pipeline-" + task + "-" + index, task, phase);
    }

    private static List<ObservedPod> preprocessors(PodPhase... phases) {
        return Stream.of(0, 1, 2).map(index -> pod("preprocess", index, phases[index])).toList();
    }

    static Stream<Arguments> cases() {
        ObservedPod loaderRunning = pod("loader", 0, PodPhase.RUNNING);
        ObservedPod loaderDone = pod("loader", 0, PodPhase.SUCCEEDED);
        return Stream.of(
                Arguments.of("at first only the loader starts", "completed", List.of(), List.of("pipeline-loader-0")),
                Arguments.of("Volcano's meaning: a running loader releases the preprocessors", "running", List.of(loaderRunning),
                        List.of("pipeline-preprocess-0", "pipeline-preprocess-1", "pipeline-preprocess-2")),
                Arguments.of("completed: a running loader is not enough", "completed", List.of(loaderRunning), List.of()),
                Arguments.of("completed: a finished loader releases the preprocessors", "completed", List.of(loaderDone),
                        List.of("pipeline-preprocess-0", "pipeline-preprocess-1", "pipeline-preprocess-2")),
                Arguments.of("completed: the trainer waits for every preprocessor", "completed",
                        Stream.concat(Stream.of(loaderDone), preprocessors(PodPhase.SUCCEEDED, PodPhase.SUCCEEDED, PodPhase.RUNNING).stream()).toList(),
                        List.of()),
                Arguments.of("completed: the trainer starts once preprocessing succeeded", "completed",
                        Stream.concat(Stream.of(loaderDone), preprocessors(PodPhase.SUCCEEDED, PodPhase.SUCCEEDED, PodPhase.SUCCEEDED).stream()).toList(),
                        List.of("pipeline-train-0")),
                Arguments.of("completed: a failed preprocessor holds the trainer back for good", "completed",
                        Stream.concat(Stream.of(loaderDone), preprocessors(PodPhase.SUCCEEDED, PodPhase.FAILED, PodPhase.SUCCEEDED).stream()).toList(),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void podsAreCreatedWhenTheirParentsAreReady(String description, String mode, List<ObservedPod> pods, List<String> created) {
        VolcanoJob job = TestingJobs.job(TestingJobs.fixtureJobManifest("task-dependencies.yaml").toString()
                .replace("\"muster.dev/depends-on\":\"completed\"", "\"muster.dev/depends-on\":\"" + mode + "\""));

        JobPlan plan = RECONCILER.reconcile(inPhase(job, JobPhase.RUNNING, 0),
                new ObservedJob(ImmutableList.copyOf(pods), Optional.of(PodGroupPhase.RUNNING)), NOW);

        assertThat(plan.podNamesToCreate()).containsExactlyElementsOf(created);
    }

    @Test
    void waitingTasksSayWhatTheyWaitFor() {
        VolcanoJob job = TestingJobs.fixtureJob("task-dependencies.yaml");

        JobPlan plan = RECONCILER.reconcile(inPhase(job, JobPhase.RUNNING, 0), ObservedJob.of(PodGroupPhase.RUNNING), NOW);

        assertThat(plan.waitingTasks()).containsEntry("preprocess", "waits for loader to be completed")
                .containsEntry("train", "waits for preprocess to be completed");
    }

    @Test
    void taskWhoseParentFailedSaysItWillNotStart() {
        VolcanoJob job = TestingJobs.fixtureJob("task-dependencies.yaml");
        List<ObservedPod> pods = Stream.concat(Stream.of(pod("loader", 0, PodPhase.SUCCEEDED)),
                preprocessors(PodPhase.FAILED, PodPhase.SUCCEEDED, PodPhase.SUCCEEDED).stream()).toList();

        JobPlan plan = RECONCILER.reconcile(inPhase(job, JobPhase.RUNNING, 0),
                new ObservedJob(ImmutableList.copyOf(pods), Optional.of(PodGroupPhase.RUNNING)), NOW);

        assertThat(plan.waitingTasks()).containsEntry("train", "will not start: preprocess failed, needed succeeded");
    }
}
