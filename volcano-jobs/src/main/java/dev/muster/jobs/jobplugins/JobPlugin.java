package dev.muster.jobs.jobplugins;

import com.google.common.collect.ImmutableList;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.controller.ObjectRef;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * One job plugin, built for one job from its arguments. Called by the job reconciler on the
 * reconciling thread; implementations are pure: no I/O, no clock, no logging of what they make.
 */
public interface JobPlugin {
    /** The key in {@code spec.plugins}. */
    String name();

    /** Adds the plugin's environment, volumes, ports and host names to a pod about to be created. */
    default void onPodCreate(Pod pod, VolcanoJob job, TaskSpec task, int index) {}

    /** Objects made once, when the job starts or restarts (the ssh Secret); created only if absent. */
    default ImmutableList<HasMetadata> objectsOnJobAdd(VolcanoJob job) {
        return ImmutableList.of();
    }

    /** Objects kept in step with the job on every sync (the hosts ConfigMap); created or updated. */
    default ImmutableList<HasMetadata> objectsOnSync(VolcanoJob job) {
        return ImmutableList.of();
    }

    /** Objects to delete when the whole job is killed (Volcano's {@code OnJobDelete}). */
    default ImmutableList<ObjectRef> objectsOnJobDelete(VolcanoJob job) {
        return ImmutableList.of();
    }
}
