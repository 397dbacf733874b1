package dev.muster.engine.jobs.controller;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.PodGroupPhase;
import java.util.Optional;

/**
 * What the runtime observed for one job: the pods it controls (by owner reference) and the phase of
 * its PodGroup, empty while the PodGroup does not exist.
 */
public record ObservedJob(ImmutableList<ObservedPod> pods, Optional<PodGroupPhase> podGroupPhase) {
    public static final ObservedJob NOTHING = new ObservedJob(ImmutableList.of(), Optional.empty());

    public ObservedJob {
        pods = ImmutableList.copyOf(pods);
        requireNonNull(podGroupPhase, "podGroupPhase is null");
    }

    public static ObservedJob of(PodGroupPhase podGroupPhase, ObservedPod... pods) {
        return new ObservedJob(ImmutableList.copyOf(pods), Optional.of(podGroupPhase));
    }

    public ImmutableList<ObservedPod> podsOf(String task) {
        return pods.stream().filter(pod -> pod.task().equals(task)).collect(ImmutableList.toImmutableList());
    }

    public Optional<ObservedPod> pod(String name) {
        return pods.stream().filter(pod -> pod.name().equals(name)).findFirst();
    }

    /** Volcano creates pods only once the scheduler has admitted the PodGroup (Inqueue or later). */
    public boolean podGroupAdmitted() {
        return podGroupPhase.isPresent() && podGroupPhase.get() != PodGroupPhase.PENDING;
    }
}
