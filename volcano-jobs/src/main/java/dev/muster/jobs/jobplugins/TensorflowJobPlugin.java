package dev.muster.jobs.jobplugins;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSet;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code tensorflow}: {@code TF_CONFIG} in every container, naming the hosts of the ps, worker, chief
 * and evaluator tasks (names set with {@code --ps}, {@code --worker}, {@code --chief},
 * {@code --evaluator}) on {@code --port} (2222), and the pod's own role and index. A job of one task
 * with one replica gets none.
 */
public final class TensorflowJobPlugin implements JobPlugin {
    public static final String NAME = "tensorflow";
    static final ImmutableSet<String> VALUE_FLAGS = ImmutableSet.of("ps", "worker", "chief", "evaluator", "port");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Task name to TF_CONFIG role, in the order the cluster lists them. */
    private final Map<String, String> roles = new LinkedHashMap<>();
    private final int port;

    public TensorflowJobPlugin(JobPluginFlags flags) {
        roles.put(flags.string("ps", "ps"), "ps");
        roles.put(flags.string("worker", "worker"), "worker");
        roles.put(flags.string("chief", "chief"), "chief");
        roles.put(flags.string("evaluator", "evaluator"), "evaluator");
        this.port = flags.integer("port").orElse(2222);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onPodCreate(Pod pod, VolcanoJob job, TaskSpec task, int index) {
        if (job.spec().tasks().size() == 1 && job.spec().tasks().get(0).replicas() == 1) {
            return;
        }
        Pods.addEnv(Pods.containers(pod), new EnvVar("TF_CONFIG", tfConfig(job, task, index), null));
    }

    /** {@code {"cluster":{"ps":[...],"worker":[...]},"task":{"type":"worker","index":0}}}. */
    String tfConfig(VolcanoJob job, TaskSpec self, int index) {
        ObjectNode config = JSON.createObjectNode();
        ObjectNode cluster = config.putObject("cluster");
        for (String role : new String[] {"ps", "worker", "chief", "evaluator"}) {
            for (TaskSpec task : job.spec().tasks()) {
                if (role.equals(roles.get(task.name()))) {
                    ArrayNode hosts = cluster.putArray(role);
                    for (int i = 0; i < task.replicas(); i++) {
                        hosts.add(Pods.domainName(job, task, i) + ":" + port);
                    }
                }
            }
        }
        ObjectNode taskNode = config.putObject("task");
        taskNode.put("type", roles.getOrDefault(self.name(), self.name()));
        taskNode.put("index", index);
        return config.toString();
    }
}
