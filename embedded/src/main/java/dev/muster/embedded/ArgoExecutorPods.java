package dev.muster.embedded;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import com.google.errorprone.annotations.ThreadSafe;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs, as local processes, the pods whose every container is Argo's executor ({@code argoexec init}, {@code argoexec
 * resource ...}): the pod of an Argo resource template. Its main container creates the template's object and waits for
 * the template's success or failure condition, as it does on a cluster, so the object is really made and watched.
 * Each container runs in a {@link ContainerSandbox} with the pod's environment ({@link PodEnvironment}), its
 * {@code emptyDir} volumes (a directory per pod, gone with the pod) and a kubeconfig of this cluster whose namespace is the
 * pod's, in place of the service account a real kubelet would mount. The pod's other containers ("the user's") have no
 * image to run here, so only executor pods are run this way.
 */
@ThreadSafe
public final class ArgoExecutorPods implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ArgoExecutorPods.class);
    /** The executable's name in the commands Argo's controller writes. */
    static final String EXECUTABLE = "argoexec";
    /** Where {@code argoexec init} copies itself for the emissary ({@code workflow/executor/emissary/binary.go}). */
    private static final String EMISSARY = "/var/run/argo/argoexec";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path argoexec;
    private final JsonNode kubeconfig;
    private final Path directory;
    private final ContainerSandbox.Tools tools;
    /** The processes running, by pod uid. */
    private final Map<String, Set<Process>> running = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private ArgoExecutorPods(Path argoexec, JsonNode kubeconfig, Path directory, ContainerSandbox.Tools tools) {
        this.argoexec = requireNonNull(argoexec, "argoexec is null");
        this.kubeconfig = requireNonNull(kubeconfig, "kubeconfig is null");
        this.directory = requireNonNull(directory, "directory is null");
        this.tools = requireNonNull(tools, "tools is null");
    }

    /**
     * Checks that {@code argoexec} runs in a sandbox here ({@code argoexec version}), then returns the runner.
     *
     * @param argoexec Argo's executor, as {@code peers/install argoexec} builds it
     * @param kubeconfig the cluster's kubeconfig, which the executors use with the pod's namespace
     * @param directory where the pods' volumes and logs go; deleted by {@link #close()}
     * @throws IllegalStateException with the sandbox's output when it cannot run here
     */
    public static ArgoExecutorPods start(Path argoexec, Path kubeconfig, Path directory) throws IOException, InterruptedException {
        checkExecutable(argoexec);
        JsonNode config = JSON.valueToTree(Serialization.unmarshal(Files.readString(kubeconfig, UTF_8), Map.class));
        ArgoExecutorPods pods = new ArgoExecutorPods(argoexec, config, directory, ContainerSandbox.Tools.find(System.getenv()));
        Path probeDirectory = pods.directory.resolve("probe");
        Files.createDirectories(probeDirectory);
        Path probeKubeconfig = Files.writeString(probeDirectory.resolve("kubeconfig"), JSON.writeValueAsString(config), UTF_8);
        ContainerExit probe = pods.runContainer("probe", List.of(EXECUTABLE, "version"), Map.of(), Map.of(), probeKubeconfig,
                probeDirectory.resolve("container"));
        delete(probeDirectory);
        if (probe.exitCode() != 0) {
            throw new IllegalStateException("cannot run Argo's executor " + argoexec + " in a mount namespace of its own (unshare, exit code "
                    + probe.exitCode() + "): " + probe.message());
        }
        return pods;
    }

    /**
     * Whether every container of the pod, init containers included, runs nothing but Argo's executor: its image's own
     * {@code argoexec}, or Argo's emissary ({@code /var/run/argo/argoexec emissary ... --}, the copy {@code argoexec init}
     * leaves in the {@code var-run-argo} volume) running {@code argoexec}, as a resource template's {@code main} does. A
     * container template's emissary runs the user's command in the user's image, so its pod is not one of these.
     */
    public static boolean runs(Pod pod) {
        List<Container> containers = Stream.concat(pod.getSpec().getInitContainers().stream(), pod.getSpec().getContainers().stream()).toList();
        return !containers.isEmpty() && containers.stream().allMatch(ArgoExecutorPods::runsExecutor);
    }

    private static boolean runsExecutor(Container container) {
        List<String> line = ImmutableList.<String>builder().addAll(container.getCommand()).addAll(container.getArgs()).build();
        if (line.isEmpty()) {
            return false;
        }
        if (line.get(0).equals(EXECUTABLE)) {
            return true;
        }
        int separator = line.indexOf("--");
        return line.get(0).equals(EMISSARY) && line.size() > 1 && line.get(1).equals("emissary") && separator > 0
                && separator + 1 < line.size() && line.get(separator + 1).equals(EXECUTABLE);
    }

    /** Runs the pod's init containers one after the other, until one fails; blocks. */
    ContainerExit runInit(Pod pod) {
        for (Container container : pod.getSpec().getInitContainers()) {
            ContainerExit exit = run(pod, container);
            if (exit.exitCode() != 0) {
                return exit;
            }
        }
        return ContainerExit.SUCCEEDED;
    }

    /** Runs the pod's containers side by side and waits for all; the first failure is the pod's. Blocks. */
    ContainerExit runMain(Pod pod) {
        List<Thread> threads = new ArrayList<>();
        List<ContainerExit> exits = new ArrayList<>();
        for (Container container : pod.getSpec().getContainers()) {
            Thread thread = new Thread(() -> {
                ContainerExit exit = run(pod, container);
                synchronized (exits) {
                    exits.add(exit);
                }
            }, "muster-container-" + pod.getMetadata().getName() + "-" + container.getName());
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop(pod.getMetadata().getUid());
                return new ContainerExit(137, "stopped with muster up");
            }
        }
        synchronized (exits) {
            return exits.stream().filter(exit -> exit.exitCode() != 0).findFirst().orElse(ContainerExit.SUCCEEDED);
        }
    }

    /** Ends the pod's processes (SIGTERM), as when the pod is deleted. */
    void stop(String uid) {
        running.getOrDefault(uid, Set.of()).forEach(Process::destroy);
    }

    /** Ends the pod's processes and deletes its volumes and logs. */
    void remove(String uid) {
        stop(uid);
        running.remove(uid);
        delete(directory.resolve("pods").resolve(uid));
    }

    @Override
    public void close() {
        closed = true;
        running.values().forEach(processes -> processes.forEach(Process::destroyForcibly));
        running.clear();
        delete(directory);
    }

    private ContainerExit run(Pod pod, Container container) {
        String name = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        Path podDirectory = directory.resolve("pods").resolve(pod.getMetadata().getUid());
        try {
            Map<String, String> environment = PodEnvironment.of(pod, container);
            Map<String, Path> mounts = PodEnvironment.mounts(pod, container, podDirectory.resolve("volumes"));
            List<String> command = ImmutableList.<String>builder().addAll(container.getCommand()).addAll(container.getArgs()).build();
            Path kubeconfigFile = podDirectory.resolve("kubeconfig");
            if (!Files.exists(kubeconfigFile)) {
                Files.createDirectories(podDirectory);
                Files.writeString(kubeconfigFile, JSON.writeValueAsString(inNamespace(pod.getMetadata().getNamespace())), UTF_8);
            }
            ContainerExit exit = runContainer(pod.getMetadata().getUid(), command, environment, mounts, kubeconfigFile,
                    podDirectory.resolve("containers").resolve(container.getName()));
            log.debug("pod={} container={} exitCode={} log={}", name, container.getName(), exit.exitCode(),
                    podDirectory.resolve("containers").resolve(container.getName()).resolve("log"));
            return exit;
        } catch (IllegalArgumentException e) {
            // a pod this kubelet cannot start: it fails, saying why, rather than hang Pending
            return new ContainerExit(128, e.getMessage());
        } catch (IOException e) {
            return new ContainerExit(128, "pod " + name + ": container " + container.getName() + ": " + e.getMessage());
        }
    }

    private ContainerExit runContainer(String uid, List<String> command, Map<String, String> environment, Map<String, Path> mounts,
            Path kubeconfigFile, Path containerDirectory) throws IOException {
        Files.createDirectories(containerDirectory.resolve("root"));
        Path terminationLog = Files.writeString(containerDirectory.resolve("termination-log"), "");
        Path output = containerDirectory.resolve("log");
        ContainerSandbox sandbox = new ContainerSandbox(containerDirectory.resolve("root"), argoexec, terminationLog, kubeconfigFile,
                ImmutableMap.copyOf(mounts));
        ProcessBuilder builder = new ProcessBuilder(sandbox.command(command, tools)).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().clear();
        builder.environment().putAll(Map.of("PATH", "/bin", "HOME", "/root", "KUBECONFIG", ContainerSandbox.KUBECONFIG));
        builder.environment().putAll(environment);
        if (closed) {
            return new ContainerExit(137, "stopped with muster up");
        }
        Process process = builder.start();
        Set<Process> processes = running.computeIfAbsent(uid, key -> ConcurrentHashMap.newKeySet());
        processes.add(process);
        try {
            int exitCode = process.waitFor();
            return new ContainerExit(exitCode, ContainerExit.message(exitCode, terminationLog, output));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
            return new ContainerExit(137, "stopped with muster up");
        } finally {
            processes.remove(process);
        }
    }

    /** The kubeconfig with every context in the namespace, as a pod's service account is in the pod's. */
    private JsonNode inNamespace(String namespace) {
        JsonNode copy = kubeconfig.deepCopy();
        for (JsonNode context : copy.path("contexts")) {
            if (context.path("context") instanceof ObjectNode fields) {
                fields.put("namespace", namespace);
            }
        }
        return copy;
    }

    private static void checkExecutable(Path argoexec) {
        if (!Files.isExecutable(argoexec)) {
            throw new IllegalStateException("Argo's executor " + argoexec + " is not an executable file (peers/install argoexec builds it)");
        }
    }

    /** Deletes a pod's files; one that cannot be deleted stays behind, told once. */
    private static void delete(Path path) {
        try {
            if (Files.exists(path)) {
                MoreFiles.deleteRecursively(path, RecursiveDeleteOption.ALLOW_INSECURE);
            }
        } catch (IOException e) {
            log.warn("cannot delete {}: {}", path, e.getMessage());
        }
    }
}
