package dev.muster.jobs.jobplugins;

import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.List;

/** Small edits plugins make to pods, and the host names Volcano gives them. */
final class Pods {
    private Pods() {}

    /** {@code <job>-<task>-<index>}. */
    static String podName(String job, String task, int index) {
        return job + "-" + task + "-" + index;
    }

    /** The DNS name of replica {@code index} of {@code task}: {@code <hostname>.<subdomain>}, defaults pod name and job name. */
    static String domainName(VolcanoJob job, TaskSpec task, int index) {
        String host = task.hostname().isEmpty() ? podName(job.name(), task.name(), index) : task.hostname();
        String subdomain = task.subdomain().isEmpty() ? job.name() : task.subdomain();
        return host + "." + subdomain;
    }

    static void addEnv(List<Container> containers, EnvVar... variables) {
        for (Container container : containers) {
            List<EnvVar> env = new ArrayList<>(container.getEnv());
            env.addAll(List.of(variables));
            container.setEnv(env);
        }
    }

    static void addMount(List<Container> containers, VolumeMount mount) {
        for (Container container : containers) {
            List<VolumeMount> mounts = new ArrayList<>(container.getVolumeMounts());
            mounts.add(mount);
            container.setVolumeMounts(mounts);
        }
    }

    static List<Container> containers(Pod pod) {
        return pod.getSpec().getContainers();
    }

    static List<Container> initContainers(Pod pod) {
        return pod.getSpec().getInitContainers();
    }
}
