package dev.muster.bridge.spark.operator;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.muster.peers.CustomResourceDefinitions;
import dev.muster.peers.InstalledPeer;
import dev.muster.peers.Kwok;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.PeerProcesses;
import dev.muster.peers.RealControlPlane;
import dev.muster.runtime.KubernetesRuntime;
import dev.muster.runtime.RuntimeOptions;
import dev.muster.runtime.TestingRuntime;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The Kubeflow spark-operator v2.5.2 (peer {@code spark-operator}) beside a real control plane: its
 * CRDs as the bridge carries them, scheduler-plugins' PodGroup CRD, KWOK (peer {@code kwok}) as the
 * kubelet, Muster's runtime with {@link SparkOperatorBridgeModule} the only scheduler (names
 * {@code muster} and {@code volcano}), and the operator's controller with
 * {@code --enable-batch-scheduler --kube-scheduler-names=muster}, its {@code spark-submit} that of the
 * peer {@code spark} (pyspark 4.2.0's distribution as {@code SPARK_HOME}).
 *
 * <p>The controller runs as its Helm chart's Deployment runs it, less what a cluster gives a pod: the
 * kubeconfig, and {@code KUBERNETES_SERVICE_HOST}/{@code _PORT}, from which it builds spark-submit's
 * {@code --master k8s://https://HOST:PORT} ({@code pkg/util/util.go GetMasterURL}). Its mutating webhook
 * (a second process, with a serving certificate and a MutatingWebhookConfiguration) does not run; the
 * only thing it would do here is set the pods' {@code schedulerName} ({@code addSchedulerName}), which
 * the tests ask of Spark instead, with {@code spark.kubernetes.scheduler.name} in {@code spec.sparkConf}.
 */
final class SparkOperatorOnRealControlPlane implements AutoCloseable {
    static final Path OUT = Path.of("target", "spark-operator-runs");
    static final String PEER = "spark-operator";
    /** The ServiceAccount the examples' drivers name. */
    static final String DRIVER_SERVICE_ACCOUNT = "spark-operator-spark";

    private final PeerProcesses peers = new PeerProcesses();
    private KubernetesRuntime runtime;

    private SparkOperatorOnRealControlPlane() {}

    static SparkOperatorOnRealControlPlane start(RealControlPlane controlPlane) throws InterruptedException {
        return start(controlPlane, TestingRuntime.options(Set.of("muster", "volcano"), Optional.empty()));
    }

    /** With Muster's runtime run with {@code options} (such as another scheduler configuration). */
    static SparkOperatorOnRealControlPlane start(RealControlPlane controlPlane, RuntimeOptions options) throws InterruptedException {
        SparkOperatorOnRealControlPlane operator = new SparkOperatorOnRealControlPlane();
        try {
            operator.startAll(controlPlane, options);
        } catch (InterruptedException | RuntimeException e) {
            operator.close();
            throw e;
        }
        return operator;
    }

    private void startAll(RealControlPlane controlPlane, RuntimeOptions options) throws InterruptedException {
        KubernetesClient client = controlPlane.client();
        CustomResourceDefinitions crds = new CustomResourceDefinitions(client);
        crds.install(SparkOperatorApi.class, SparkOperatorApi.CRDS);
        crds.install(CustomResourceDefinitions.class, CustomResourceDefinitions.SCHEDULER_PLUGINS_POD_GROUPS);
        client.serviceAccounts().inNamespace("default").resource(new ServiceAccountBuilder().withNewMetadata()
                .withName(DRIVER_SERVICE_ACCOUNT).withNamespace("default").endMetadata().build()).serverSideApply();
        Map<String, InstalledPeer> installed = PeerInstaller.locate().install(List.of(PEER, "spark"));
        Kwok.start(peers, controlPlane, OUT, SparkOperatorOnRealControlPlane.class);
        runtime = TestingRuntime.create(client, options, Clock.systemUTC(), new SparkOperatorBridgeModule());
        runtime.start();
        URI server = URI.create(controlPlane.serverUrl());
        peers.start(List.of(installed.get(PEER).executable().toString(), "controller", "start",
                        "--enable-batch-scheduler", "--kube-scheduler-names=muster",
                        "--enable-metrics=false", "--health-probe-bind-address=0", "--pprof-bind-address=0",
                        "--leader-election=false", "--enable-ui-service=false", "--zap-log-level=info"),
                Map.of("KUBECONFIG", controlPlane.kubeconfig().toAbsolutePath().toString(),
                        "KUBERNETES_SERVICE_HOST", server.getHost(),
                        "KUBERNETES_SERVICE_PORT", Integer.toString(server.getPort()),
                        "SPARK_HOME", sparkHome(installed.get("spark")).toString(),
                        "SPARK_LOCAL_IP", "127.0.0.1"),
                OUT.resolve("spark-operator.log"));
    }

    /**
     * pyspark's Spark distribution: {@code peers/install} puts the peer's virtual environment beside its
     * directory, as {@code .venv-spark-VERSION}, and pyspark carries {@code bin/spark-submit} and {@code jars/}.
     */
    static Path sparkHome(InstalledPeer spark) {
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

    String peerLogs() {
        return peers.tails(80);
    }

    /** The operator's whole log, for assertions that must say what it did. */
    static String operatorLog() {
        try {
            return Files.readString(OUT.resolve("spark-operator.log"), UTF_8);
        } catch (IOException e) {
            return "(no operator log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        peers.close();
        if (runtime != null) {
            try {
                runtime.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
