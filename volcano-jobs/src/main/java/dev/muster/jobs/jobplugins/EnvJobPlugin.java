package dev.muster.jobs.jobplugins;

import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;

/** {@code env}: the pod's index in its task as {@code VK_TASK_INDEX} and {@code VC_TASK_INDEX}, in every container and init container. */
public final class EnvJobPlugin implements JobPlugin {
    public static final String NAME = "env";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onPodCreate(Pod pod, VolcanoJob job, TaskSpec task, int index) {
        String value = Integer.toString(index);
        EnvVar vk = new EnvVar("VK_TASK_INDEX", value, null);
        EnvVar vc = new EnvVar("VC_TASK_INDEX", value, null);
        Pods.addEnv(Pods.containers(pod), vk, vc);
        Pods.addEnv(Pods.initContainers(pod), vk, vc);
    }
}
