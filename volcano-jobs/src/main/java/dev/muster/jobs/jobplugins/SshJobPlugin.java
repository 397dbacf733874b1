package dev.muster.jobs.jobplugins;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.controller.ObjectRef;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code ssh}: passwordless ssh between the job's pods. A key pair (generated, or given with
 * {@code --ssh-private-key} and {@code --ssh-public-key}) goes into the Secret {@code <job>-ssh},
 * owned by the job, with {@code authorized_keys} and a {@code config} naming every host; each
 * container mounts it at {@code --ssh-key-file-path} (default {@code /root/.ssh}, mode 0600; 0644
 * elsewhere). The private key is never logged.
 */
public final class SshJobPlugin implements JobPlugin {
    public static final String NAME = "ssh";
    public static final String DEFAULT_PATH = "/root/.ssh";
    static final ImmutableSet<String> VALUE_FLAGS = ImmutableSet.of("ssh-key-file-path", "ssh-private-key", "ssh-public-key", "ssh-port");
    private static final List<String> KEYS = List.of("id_rsa", "id_rsa.pub", "authorized_keys", "config");

    private final String keyFilePath;
    private final String privateKey;
    private final String publicKey;
    private final int port;
    private final SshKeyGenerator generator;

    public SshJobPlugin(JobPluginFlags flags, SshKeyGenerator generator) {
        this.keyFilePath = flags.string("ssh-key-file-path", DEFAULT_PATH);
        this.privateKey = flags.string("ssh-private-key", "");
        this.publicKey = flags.string("ssh-public-key", "");
        int requested = flags.integer("ssh-port").orElse(22);
        this.port = requested <= 0 || requested > 65535 ? 22 : requested;
        this.generator = requireNonNull(generator, "generator is null");
    }

    @Override
    public String name() {
        return NAME;
    }

    public static String secretName(VolcanoJob job) {
        return job.name() + "-" + NAME;
    }

    @Override
    public void onPodCreate(Pod pod, VolcanoJob job, TaskSpec task, int index) {
        String secret = secretName(job);
        List<KeyToPath> items = KEYS.stream().map(key -> new KeyToPath(key, null, ".ssh/" + key)).toList();
        Volume volume = new VolumeBuilder().withName(secret).withNewSecret().withSecretName(secret).withItems(items)
                .withDefaultMode(keyFilePath.equals(DEFAULT_PATH) ? 0600 : 0644).endSecret().build();
        List<Volume> volumes = new ArrayList<>(pod.getSpec().getVolumes());
        volumes.add(volume);
        pod.getSpec().setVolumes(volumes);
        VolumeMount mount = new VolumeMount(keyFilePath, null, secret, null, null, ".ssh", null);
        Pods.addMount(Pods.containers(pod), mount);
        Pods.addMount(Pods.initContainers(pod), mount);
    }

    @Override
    public ImmutableList<HasMetadata> objectsOnJobAdd(VolcanoJob job) {
        SshKeyPair pair = privateKey.isEmpty() ? generator.generate() : new SshKeyPair(privateKey, publicKey);
        Map<String, String> data = new TreeMap<>();
        data.put("id_rsa", encode(pair.privateKey()));
        data.put("id_rsa.pub", encode(pair.publicKey()));
        data.put("authorized_keys", encode(pair.publicKey()));
        data.put("config", encode(config(job)));
        return ImmutableList.of(new SecretBuilder().withMetadata(SvcJobPlugin.owned(job, secretName(job))).withData(data).build());
    }

    @Override
    public ImmutableList<ObjectRef> objectsOnJobDelete(VolcanoJob job) {
        return ImmutableList.of(new ObjectRef("v1", "Secret", job.namespace(), secretName(job)));
    }

    /** The ssh client configuration: no host key checks, and a {@code Host} entry for every pod. */
    String config(VolcanoJob job) {
        StringBuilder config = new StringBuilder("StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n");
        for (TaskSpec task : job.spec().tasks()) {
            for (int i = 0; i < task.replicas(); i++) {
                String host = task.hostname().isEmpty() ? Pods.podName(job.name(), task.name(), i) : task.hostname();
                config.append("Host ").append(host).append('\n')
                        .append("  HostName ").append(Pods.domainName(job, task, i)).append('\n')
                        .append("  Port ").append(port).append('\n');
                if (!task.hostname().isEmpty()) {
                    break;
                }
            }
        }
        return config.toString();
    }

    private static String encode(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
