package dev.muster.jobs.jobplugins;

import com.google.common.collect.ImmutableSet;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code pytorch}: for jobs with a master task ({@code --master}, default {@code master}), every
 * container gets {@code MASTER_ADDR} (the master's first pod), {@code MASTER_PORT} ({@code --port},
 * 23456, also opened as a container port), {@code WORLD_SIZE} (master and worker replicas) and
 * {@code RANK}: 0 for the master, index + 1 for a worker ({@code --worker}, default {@code worker}).
 */
public final class PytorchJobPlugin implements JobPlugin {
    public static final String NAME = "pytorch";
    static final ImmutableSet<String> VALUE_FLAGS = ImmutableSet.of("master", "worker", "port");

    private final String master;
    private final String worker;
    private final int port;

    public PytorchJobPlugin(JobPluginFlags flags) {
        this.master = flags.string("master", "master");
        this.worker = flags.string("worker", "worker");
        this.port = flags.integer("port").orElse(23456);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onPodCreate(Pod pod, VolcanoJob job, TaskSpec task, int index) {
        Optional<TaskSpec> masterTask = job.spec().task(master);
        if (masterTask.isEmpty()) {
            return;
        }
        int worldSize = job.spec().tasks().stream()
                .filter(each -> each.name().equals(master) || each.name().equals(worker))
                .mapToInt(TaskSpec::replicas).sum();
        List<EnvVar> env = new ArrayList<>(List.of(
                new EnvVar("MASTER_ADDR", Pods.domainName(job, masterTask.get(), 0), null),
                new EnvVar("MASTER_PORT", Integer.toString(port), null),
                new EnvVar("WORLD_SIZE", Integer.toString(worldSize), null)));
        if (task.name().equals(worker)) {
            env.add(new EnvVar("RANK", Integer.toString(index + 1), null));
        } else if (task.name().equals(master)) {
            env.add(new EnvVar("RANK", "0", null));
        }
        for (Container container : Pods.containers(pod)) {
            if (container.getPorts().stream().noneMatch(existing -> existing.getContainerPort() == port)) {
                List<ContainerPort> ports = new ArrayList<>(container.getPorts());
                ports.add(new ContainerPortBuilder().withName("pytorchjob-port").withContainerPort(port).build());
                container.setPorts(ports);
            }
        }
        Pods.addEnv(Pods.containers(pod), env.toArray(EnvVar[]::new));
    }
}
