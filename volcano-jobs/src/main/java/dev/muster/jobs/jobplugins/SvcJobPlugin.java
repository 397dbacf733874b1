package dev.muster.jobs.jobplugins;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.controller.ObjectRef;
import dev.muster.jobs.controller.Owners;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code svc}: a headless Service named after the job selecting its pods, a NetworkPolicy letting only
 * the job's pods in (unless {@code --disable-network-policy}), and the ConfigMap {@code <job>-svc}
 * of host lists mounted at {@code /etc/volcano}: {@code <task>.host} one host per line, and
 * {@code VC_<TASK>_HOSTS} / {@code VC_<TASK>_NUM}, also injected as environment unless
 * {@code --inject-hosts-env=false}. Each pod gets its name as hostname and the job as subdomain.
 */
public final class SvcJobPlugin implements JobPlugin {
    public static final String NAME = "svc";
    public static final String MOUNT_PATH = "/etc/volcano";
    static final ImmutableSet<String> BOOLEAN_FLAGS = ImmutableSet.of("publish-not-ready-addresses", "disable-network-policy", "inject-hosts-env");

    private final boolean publishNotReadyAddresses;
    private final boolean disableNetworkPolicy;
    private final boolean injectHostsEnv;

    public SvcJobPlugin(JobPluginFlags flags) {
        this.publishNotReadyAddresses = flags.bool("publish-not-ready-addresses", false);
        this.disableNetworkPolicy = flags.bool("disable-network-policy", false);
        this.injectHostsEnv = flags.bool("inject-hosts-env", true);
    }

    @Override
    public String name() {
        return NAME;
    }

    public static String configMapName(VolcanoJob job) {
        return job.name() + "-" + NAME;
    }

    @Override
    public void onPodCreate(Pod pod, VolcanoJob job, TaskSpec task, int index) {
        if (pod.getSpec().getHostname() == null || pod.getSpec().getHostname().isEmpty()) {
            pod.getSpec().setHostname(pod.getMetadata().getName());
        }
        if (pod.getSpec().getSubdomain() == null || pod.getSpec().getSubdomain().isEmpty()) {
            pod.getSpec().setSubdomain(job.name());
        }
        String configMap = configMapName(job);
        if (injectHostsEnv) {
            List<EnvVar> hosts = new ArrayList<>();
            for (TaskSpec each : job.spec().tasks()) {
                for (String key : List.of(hostsKey(each), numberKey(each))) {
                    hosts.add(new EnvVarBuilder().withName(key).withNewValueFrom().withNewConfigMapKeyRef(key, configMap, null)
                            .endValueFrom().build());
                }
            }
            Pods.addEnv(Pods.containers(pod), hosts.toArray(EnvVar[]::new));
            Pods.addEnv(Pods.initContainers(pod), hosts.toArray(EnvVar[]::new));
        }
        Volume volume = new VolumeBuilder().withName(configMap).withNewConfigMap().withName(configMap).endConfigMap().build();
        List<Volume> volumes = new ArrayList<>(pod.getSpec().getVolumes());
        volumes.add(volume);
        pod.getSpec().setVolumes(volumes);
        VolumeMount mount = new VolumeMount(MOUNT_PATH, null, configMap, null, null, null, null);
        Pods.addMount(Pods.containers(pod), mount);
        Pods.addMount(Pods.initContainers(pod), mount);
    }

    @Override
    public ImmutableList<HasMetadata> objectsOnSync(VolcanoJob job) {
        ImmutableList.Builder<HasMetadata> objects = ImmutableList.builder();
        objects.add(new ConfigMapBuilder().withMetadata(owned(job, configMapName(job))).withData(hosts(job)).build());
        Map<String, String> selector = Map.of(SchedulingApi.JOB_NAME, job.name(), SchedulingApi.JOB_NAMESPACE, job.namespace());
        objects.add(new ServiceBuilder().withMetadata(owned(job, job.name())).withNewSpec().withClusterIP("None").withSelector(selector)
                .withPublishNotReadyAddresses(publishNotReadyAddresses).endSpec().build());
        if (!disableNetworkPolicy) {
            objects.add(new NetworkPolicyBuilder().withMetadata(owned(job, job.name())).withNewSpec()
                    .withNewPodSelector().withMatchLabels(selector).endPodSelector()
                    .addNewIngress().addNewFrom().withNewPodSelector().withMatchLabels(selector).endPodSelector().endFrom().endIngress()
                    .withPolicyTypes("Ingress").endSpec().build());
        }
        return objects.build();
    }

    @Override
    public ImmutableList<ObjectRef> objectsOnJobDelete(VolcanoJob job) {
        ImmutableList.Builder<ObjectRef> objects = ImmutableList.builder();
        objects.add(new ObjectRef("v1", "ConfigMap", job.namespace(), configMapName(job)));
        objects.add(new ObjectRef("v1", "Service", job.namespace(), job.name()));
        if (!disableNetworkPolicy) {
            objects.add(new ObjectRef("networking.k8s.io/v1", "NetworkPolicy", job.namespace(), job.name()));
        }
        return objects.build();
    }

    /** The ConfigMap's data: for each task its hosts, one per line and comma-separated, and their number. */
    public static Map<String, String> hosts(VolcanoJob job) {
        Map<String, String> data = new TreeMap<>();
        for (TaskSpec task : job.spec().tasks()) {
            List<String> hosts = new ArrayList<>();
            for (int i = 0; i < task.replicas(); i++) {
                hosts.add(Pods.domainName(job, task, i));
                if (!task.hostname().isEmpty()) {
                    break;
                }
            }
            data.put(task.name().replace('-', '_') + ".host", String.join("\n", hosts));
            data.put(hostsKey(task), String.join(",", hosts));
            data.put(numberKey(task), Integer.toString(hosts.size()));
        }
        return data;
    }

    private static String hostsKey(TaskSpec task) {
        return "VC_" + envName(task) + "_HOSTS";
    }

    private static String numberKey(TaskSpec task) {
        return "VC_" + envName(task) + "_NUM";
    }

    private static String envName(TaskSpec task) {
        return task.name().replace('-', '_').toUpperCase(Locale.ROOT);
    }

    static ObjectMeta owned(VolcanoJob job, String name) {
        return new ObjectMetaBuilder().withNamespace(job.namespace()).withName(name).withOwnerReferences(Owners.controllerOf(job)).build();
    }
}
