package dev.muster.cli;

import dev.muster.peers.InstalledPeer;
import dev.muster.peers.PeerInstaller;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * How {@code muster up --peer spark-operator} runs the Kubeflow spark-operator v2.5.2's controller:
 * {@code controller start --enable-batch-scheduler --kube-scheduler-names=muster}, its metrics, health,
 * profiling and UI Service off, no leader election, and what a cluster would give its pod in the
 * environment: the kubeconfig, {@code KUBERNETES_SERVICE_HOST}/{@code _PORT} (from which it builds its
 * {@code spark-submit --master k8s://https://HOST:PORT}) and {@code SPARK_HOME}, the Spark distribution
 * of the peer {@code spark} (pyspark 4.2.0), installed here too. The environment goes on the command
 * line through {@code env}, since it depends on the kubeconfig.
 */
final class SparkOperatorPeer {
    /** The ServiceAccount the operator's examples give their drivers. */
    static final String DRIVER_SERVICE_ACCOUNT = "spark-operator-spark";

    private SparkOperatorPeer() {}

    static List<String> command(Path executable, Path kubeconfig) {
        URI server = URI.create(Config.fromKubeconfig(kubeconfig.toFile()).getMasterUrl());
        InstalledPeer spark = PeerInstaller.locate().install(List.of("spark")).get("spark");
        List<String> command = new ArrayList<>(List.of("env", "KUBECONFIG=" + kubeconfig,
                "KUBERNETES_SERVICE_HOST=" + server.getHost(), "KUBERNETES_SERVICE_PORT=" + server.getPort(),
                "SPARK_HOME=" + sparkHome(spark), "SPARK_LOCAL_IP=127.0.0.1"));
        command.addAll(List.of(executable.toString(), "controller", "start", "--enable-batch-scheduler", "--kube-scheduler-names=muster",
                "--enable-metrics=false", "--health-probe-bind-address=0", "--pprof-bind-address=0", "--leader-election=false",
                "--enable-ui-service=false"));
        return command;
    }

    /** The examples' drivers run as {@value #DRIVER_SERVICE_ACCOUNT} in {@code default}. */
    static void prepare(KubernetesClient client) {
        if (client.serviceAccounts().inNamespace("default").withName(DRIVER_SERVICE_ACCOUNT).get() == null) {
            client.serviceAccounts().inNamespace("default").resource(new ServiceAccountBuilder().withNewMetadata()
                    .withName(DRIVER_SERVICE_ACCOUNT).withNamespace("default").endMetadata().build()).create();
        }
    }

    /** pyspark's distribution, in the virtual environment {@code peers/install} keeps beside the peer's directory. */
    private static Path sparkHome(InstalledPeer spark) {
        Path venv = spark.executable().getParent().resolveSibling(".venv-spark-" + spark.version());
        try (Stream<Path> libraries = Files.list(venv.resolve("lib"))) {
            return libraries.map(python -> python.resolve("site-packages").resolve("pyspark"))
                    .filter(home -> Files.isExecutable(home.resolve("bin").resolve("spark-submit")))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no pyspark/bin/spark-submit under " + venv.resolve("lib")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the spark peer's environment " + venv, e);
        }
    }
}
