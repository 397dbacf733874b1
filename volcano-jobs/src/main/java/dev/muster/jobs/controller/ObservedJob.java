package dev.muster.jobs.controller;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.model.PodGroupPhase;
import java.util.Optional;

/**
 * What the runtime observed for one job: the pods it controls (by owner reference) and the phase of
 * its PodGroup, empty while the PodGroup does not exist.
 *
 * @param missingObjects plugin objects the runtime looked for and found gone (deleted by hand); empty
 *     unless it looked, which it does on a periodic resync only
 */
public record ObservedJob(ImmutableList<ObservedPod> pods, Optional<PodGroupPhase> podGroupPhase, ImmutableSet<ObjectRef> missingObjects) {
    public static final ObservedJob NOTHING = new ObservedJob(ImmutableList.of(), Optional.empty());

    public ObservedJob {
        pods = ImmutableList.copyOf(pods);
        requireNonNull(podGroupPhase, "podGroupPhase is null");
        missingObjects = ImmutableSet.copyOf(missingObjects);
    }

    public ObservedJob(ImmutableList<ObservedPod> pods, Optional<PodGroupPhase> podGroupPhase) {
        this(pods, podGroupPhase, ImmutableSet.of());
    }

    public ObservedJob withMissingObjects(ImmutableSet<ObjectRef> missing) {
        return new ObservedJob(pods, podGroupPhase, missing);
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
