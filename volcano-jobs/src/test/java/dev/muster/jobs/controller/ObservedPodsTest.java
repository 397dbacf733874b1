package dev.muster.jobs.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.api.SchedulingApi;
import dev.muster.jobs.PodPhase;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ObservedPodsTest {
    @Test
    void readsWhatTheControllerNeedsFromAPod() {
        Pod pod = new PodBuilder()
                .withNewMetadata().withName("train-worker-0").withDeletionTimestamp("2026-01-01T00:00:00Z")
                .addToAnnotations(SchedulingApi.TASK_SPEC, "worker").addToAnnotations(SchedulingApi.JOB_VERSION, "3")
                .addToAnnotations(SchedulingApi.OUT_OF_SYNC, "true").endMetadata()
                .withNewStatus().withPhase("Failed")
                .addNewContainerStatus().withReady(false).withRestartCount(2)
                .withNewState().withNewTerminated().withExitCode(137).endTerminated().endState().endContainerStatus()
                .endStatus().build();

        ObservedPod observed = ObservedPods.of(pod).orElseThrow();

        assertThat(observed).isEqualTo(new ObservedPod("train-worker-0", "worker", PodPhase.FAILED, true, true, false, 2,
                OptionalInt.of(137), 3));
    }

    @Test
    void podWithoutATaskIsNotAJobsPod() {
        assertThat(ObservedPods.of(new PodBuilder().withNewMetadata().withName("web").endMetadata().build())).isEmpty();
    }
}
