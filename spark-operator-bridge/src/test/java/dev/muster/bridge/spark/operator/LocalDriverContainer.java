package dev.muster.bridge.spark.operator;

import static com.google.common.base.Preconditions.checkState;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.muster.peers.PeerProcesses;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The container of a driver pod that the operator's {@code spark-submit} created, run on this machine as a
 * kubelet would run it from Spark's image (KWOK runs no container). Spark's {@code entrypoint.sh} runs, for
 * the argument {@code driver}, {@code spark-submit --conf spark.driver.bindAddress=$SPARK_DRIVER_BIND_ADDRESS
 * --deploy-mode client ARGS}, in a container where the pod's ConfigMap volumes are mounted: the submission's
 * {@code spark.properties} and the executors' pod template. Here each volume is a directory under the test's
 * own, and paths under a mount point, in the arguments and in the mounted files, are made to point there.
 *
 * <p>Two things differ from a pod, and are given as {@code --conf}, which wins over the properties file: the
 * driver is reached at 127.0.0.1 ({@code spark.driver.host}; the driver's Service name resolves nowhere
 * here), and it authenticates with the kubeconfig as a client-mode driver
 * ({@code spark.kubernetes.submitInDriver=false}), not with a pod's mounted service-account token. The rest is
 * Spark's own: its {@code ExecutorPodsAllocator} creates the executor pods from the submission's confs (the
 * operator's group annotation, the scheduler name, {@code spark-role=executor}), owned by the driver pod.
 */
final class LocalDriverContainer {
    private static final String DRIVER_CONTAINER = "spark-kubernetes-driver";

    private final Process process;

    private LocalDriverContainer(Process process) {
        this.process = process;
    }

    static LocalDriverContainer start(KubernetesClient client, Pod driver, Path sparkSubmit, Path kubeconfig, Path directory,
            PeerProcesses peers) {
        Container container = driver.getSpec().getContainers().stream().filter(c -> c.getName().equals(DRIVER_CONTAINER)).findFirst()
                .orElseThrow(() -> new IllegalStateException("driver pod " + driver.getMetadata().getName() + " has no container "
                        + DRIVER_CONTAINER));
        List<String> args = container.getArgs();
        checkState(!args.isEmpty() && args.get(0).equals("driver"), "not a Spark driver's arguments: %s", args);
        Map<String, Path> mounts = mountConfigMaps(client, driver, container, directory);
        List<String> command = new ArrayList<>(List.of(sparkSubmit.toString(),
                "--conf", "spark.driver.bindAddress=127.0.0.1", "--conf", "spark.driver.host=127.0.0.1",
                "--conf", "spark.kubernetes.submitInDriver=false", "--deploy-mode", "client"));
        args.subList(1, args.size()).forEach(arg -> command.add(local(arg, mounts)));
        Map<String, String> environment = Map.of("KUBECONFIG", kubeconfig.toAbsolutePath().toString(), "SPARK_LOCAL_IP", "127.0.0.1");
        return new LocalDriverContainer(peers.start(command, environment, directory.resolve("driver.log")));
    }

    /** Writes each ConfigMap volume the container mounts into a directory of its own; mount point to directory. */
    private static Map<String, Path> mountConfigMaps(KubernetesClient client, Pod driver, Container container, Path directory) {
        Map<String, Path> mounts = new LinkedHashMap<>();
        Map<Path, String> files = new LinkedHashMap<>();
        try {
            for (VolumeMount mount : container.getVolumeMounts()) {
                Volume volume = driver.getSpec().getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no volume " + mount.getName()));
                if (volume.getConfigMap() == null) {
                    continue;
                }
                ConfigMap configMap = client.configMaps().inNamespace(driver.getMetadata().getNamespace())
                        .withName(volume.getConfigMap().getName()).get();
                checkState(configMap != null, "ConfigMap %s of driver pod %s does not exist", volume.getConfigMap().getName(),
                        driver.getMetadata().getName());
                Path root = directory.resolve(volume.getName()).toAbsolutePath();
                Files.createDirectories(root);
                Map<String, String> paths = new LinkedHashMap<>();
                List<KeyToPath> items = volume.getConfigMap().getItems();
                if (items == null || items.isEmpty()) {
                    configMap.getData().keySet().forEach(key -> paths.put(key, key));
                } else {
                    items.forEach(item -> paths.put(item.getKey(), item.getPath()));
                }
                paths.forEach((key, path) -> files.put(root.resolve(path), configMap.getData().get(key)));
                mounts.put(mount.getMountPath(), root);
            }
            for (Map.Entry<Path, String> file : files.entrySet()) {
                Files.createDirectories(file.getKey().getParent());
                Files.writeString(file.getKey(), local(file.getValue(), mounts), UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the driver's volumes under " + directory, e);
        }
        return mounts;
    }

    /** The text with every path under a mount point made the path of the directory that stands for it. */
    private static String local(String text, Map<String, Path> mounts) {
        String local = text;
        for (Map.Entry<String, Path> mount : mounts.entrySet()) {
            local = local.replace(mount.getKey(), mount.getValue().toString());
        }
        return local;
    }

    /**
     * Ends the driver and waits until it is gone: a driver still alive would create executors again once a test
     * deletes them. Spark's shutdown hook deletes its executors, given the time.
     */
    void stop() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
