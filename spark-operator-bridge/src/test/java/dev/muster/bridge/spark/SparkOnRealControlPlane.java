package dev.muster.bridge.spark;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.muster.bridge.spark.job.SumOfSquares;
import dev.muster.peers.CustomResourceDefinitions;
import dev.muster.peers.Kwok;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.PeerProcesses;
import dev.muster.peers.RealControlPlane;
import dev.muster.runtime.KubernetesRuntime;
import dev.muster.runtime.RuntimeOptions;
import dev.muster.runtime.TestingRuntime;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Spark beside a real control plane: KWOK (peer {@code kwok}) as the kubelet, Muster's runtime the
 * only scheduler ({@code schedulerName: muster}), and the real {@code spark-submit} of Spark 4.2.0
 * (peer {@code spark}, PyPI's pyspark) with the jar this module packages. KWOK only fakes pod status:
 * no container runs, so a driver pod never starts a JVM and executors never register. What Spark
 * creates (the driver pod and PodGroup in cluster mode; the executor pods its allocator makes from a
 * driver in a child JVM in client mode) and what Muster does with it is what the tests can see.
 */
final class SparkOnRealControlPlane implements AutoCloseable {
    static final Path OUT = Path.of("target", "spark-runs");
    /** Where the jars would be in a Spark image; only the submitting JVM reads them here. */
    static final String IMAGE_STEP_JAR = "local:///opt/spark/jars/muster-spark.jar";
    static final String IMAGE_JOB_JAR = "local:///opt/muster/sum-of-squares.jar";

    private final PeerProcesses peers = new PeerProcesses();
    private final RealControlPlane controlPlane;
    private final Path sparkSubmit;
    private final Path stepJar;
    private final Path jobJar;
    private KubernetesRuntime runtime;

    private SparkOnRealControlPlane(RealControlPlane controlPlane) {
        this.controlPlane = controlPlane;
        String jar = System.getProperty("muster.spark.stepJar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("no step jar at muster.spark.stepJar=" + jar + ": run these tests with failsafe, after package");
        }
        this.stepJar = Path.of(jar).toAbsolutePath();
        this.jobJar = TestJars.write(OUT.resolve("sum-of-squares.jar").toAbsolutePath(), Path.of("target", "test-classes"),
                "dev/muster/bridge/spark/job", SumOfSquares.class.getName());
        this.sparkSubmit = PeerInstaller.locate().install(List.of("spark")).get("spark").executable();
    }

    static SparkOnRealControlPlane start(RealControlPlane controlPlane) throws InterruptedException {
        return start(controlPlane, TestingRuntime.options(Set.of("muster"), Optional.empty()));
    }

    /** With Muster's runtime run with {@code options} (such as another scheduler configuration). */
    static SparkOnRealControlPlane start(RealControlPlane controlPlane, RuntimeOptions options) throws InterruptedException {
        SparkOnRealControlPlane spark = new SparkOnRealControlPlane(controlPlane);
        try {
            // Muster's runtime lists these PodGroups too, and waits until it can
            new CustomResourceDefinitions(controlPlane.client())
                    .install(CustomResourceDefinitions.class, CustomResourceDefinitions.SCHEDULER_PLUGINS_POD_GROUPS);
            Kwok.start(spark.peers, controlPlane, OUT, SparkOnRealControlPlane.class);
            spark.runtime = TestingRuntime.create(controlPlane.client(), options, Clock.systemUTC());
            spark.runtime.start();
        } catch (InterruptedException | RuntimeException e) {
            spark.close();
            throw e;
        }
        return spark;
    }

    /** A namespace of its own for one test, with the {@code default} ServiceAccount Spark's pods name. */
    static void createNamespace(KubernetesClient client, String namespace) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
        client.serviceAccounts().inNamespace(namespace)
                .resource(new ServiceAccountBuilder().withNewMetadata().withName("default").endMetadata().build()).create();
    }

    /** The confs every submission here has: the API server, the namespace, the image, Muster as the scheduler. */
    static Map<String, String> baseConfs(String namespace) {
        Map<String, String> confs = new LinkedHashMap<>();
        confs.put("spark.kubernetes.namespace", namespace);
        confs.put("spark.kubernetes.container.image", "apache/spark:4.2.0");
        confs.put("spark.kubernetes.scheduler.name", "muster");
        confs.put("spark.driver.memory", "512m");
        return confs;
    }

    static Map<String, String> withMusterStep(Map<String, String> confs) {
        confs.put("spark.kubernetes.driver.pod.featureSteps", MusterFeatureStep.class.getName());
        confs.put("spark.kubernetes.executor.pod.featureSteps", MusterFeatureStep.class.getName());
        return confs;
    }

    /**
     * {@code spark-submit --deploy-mode cluster}, without waiting for the application: the driver's
     * jars are named as they would be in the image, and the submitting JVM finds the step on
     * {@code SPARK_DIST_CLASSPATH} (Spark does not put {@code --jars} on its own class path in cluster mode).
     */
    Submission submitCluster(String name, Map<String, String> confs) {
        List<String> command = command("cluster", name, confs);
        command.addAll(List.of("--conf", "spark.kubernetes.submission.waitAppCompletion=false"));
        command.addAll(List.of("--jars", IMAGE_STEP_JAR, IMAGE_JOB_JAR, "1000"));
        Map<String, String> environment = environment();
        environment.put("SPARK_DIST_CLASSPATH", stepJar.toString());
        return start(name, command, environment);
    }

    /** {@code spark-submit --deploy-mode client}: the driver is this child JVM, on 127.0.0.1; the step comes with {@code --jars}. */
    Submission submitClient(String name, Map<String, String> confs) {
        List<String> command = command("client", name, confs);
        command.addAll(List.of("--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
                "--jars", stepJar.toString(), jobJar.toString(), "1000"));
        return start(name, command, environment());
    }

    private List<String> command(String mode, String name, Map<String, String> confs) {
        List<String> command = new ArrayList<>(List.of(sparkSubmit.toString(), "--master", "k8s://" + controlPlane.serverUrl(),
                "--deploy-mode", mode, "--name", name, "--class", SumOfSquares.class.getName()));
        confs.forEach((key, value) -> command.addAll(List.of("--conf", key + "=" + value)));
        return command;
    }

    private Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("KUBECONFIG", controlPlane.kubeconfig().toAbsolutePath().toString());
        environment.put("SPARK_LOCAL_IP", "127.0.0.1");
        return environment;
    }

    private Submission start(String name, List<String> command, Map<String, String> environment) {
        Path log = OUT.resolve(name + ".spark-submit.log");
        return new Submission(peers.start(command, environment, log), log);
    }

    String peerLogs() {
        return peers.tails(60);
    }

    @Override
    public void close() {
        if (runtime != null) {
            try {
                runtime.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        peers.close();
    }

    /** One {@code spark-submit} process and its log. */
    record Submission(Process process, Path log) {
        /** Waits for {@code spark-submit} to end; its exit code. */
        int await(Duration timeout) throws InterruptedException {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("spark-submit still running after " + timeout + ":\n" + output());
            }
            return process.exitValue();
        }

        String output() {
            try {
                return Files.readString(log, UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * Ends the driver (client mode) and its children, and waits until they are gone: a driver still
         * alive would recreate the executors a test deletes next.
         */
        void stop() {
            List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
            tree.add(process.toHandle());
            tree.forEach(ProcessHandle::destroy);
            try {
                // Spark's shutdown hook stops the SparkContext, which deletes the executors; killed before it ends,
                // the driver leaves them behind, so it gets as long as a loaded machine needs (over 30 s seen on 2 cores)
                if (!process.waitFor(2, TimeUnit.MINUTES)) {
                    tree.forEach(ProcessHandle::destroyForcibly);
                    process.waitFor(10, TimeUnit.SECONDS);
                }
                for (ProcessHandle handle : tree) {
                    handle.onExit().get(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                tree.forEach(ProcessHandle::destroyForcibly);
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new AssertionError("spark-submit " + log + " did not end", e);
            }
        }
    }
}
