package dev.muster.bridge.kubeflow;

import static org.awaitility.Awaitility.await;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.peers.CustomResourceDefinitions;
import dev.muster.peers.InstalledPeer;
import dev.muster.peers.Kwok;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.PeerProcesses;
import dev.muster.peers.RealControlPlane;
import dev.muster.runtime.KubernetesModule;
import dev.muster.runtime.KubernetesRuntime;
import dev.muster.runtime.RuntimeModule;
import dev.muster.runtime.RuntimeOptions;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Kubeflow's training operator beside a real control plane, as a cluster runs it: the TFJob and
 * PyTorchJob CRDs the bridge carries and scheduler-plugins' PodGroup CRD, the real operator (peer
 * {@code training-operator}) with a gang scheduler, KWOK (peer {@code kwok}) as the kubelet, whose pods of
 * a training job end Succeeded, and Muster's runtime with {@link KubeflowBridgeModule}, the only
 * scheduler (names {@code muster} and {@code volcano}, the name the operator gives pods on the Volcano
 * path). Closing stops them in the reverse order.
 *
 * <p>The operator is started as {@code manifests/base/deployment.yaml} does, less what a cluster gives a
 * pod: {@code MY_POD_NAMESPACE} and the kubeconfig in the environment; its metrics and health listeners
 * off; its webhook server on a free port. Its certificate rotator needs the Secret it fills in to exist
 * (the manifests create it empty), and the certificate it writes there on disk as a mounted Secret
 * ({@link #mountWebhookCertificate}); no ValidatingWebhookConfiguration is made, so the API server never
 * calls the operator's webhooks (it serves them with a certificate for an in-cluster Service name) and
 * bad input reaches the operator and the bridge unchecked.
 */
final class TrainingOperatorOnRealControlPlane implements AutoCloseable {
    static final String NAMESPACE = "default";
    static final String PEER = "training-operator";
    /** The Secret {@code --webhook-secret-name} names by default. */
    private static final String WEBHOOK_SECRET = "training-operator-webhook-cert";
    private static final Path CERTIFICATE_DIRECTORY = Path.of("/tmp/k8s-webhook-server/serving-certs");

    private final PeerProcesses peers = new PeerProcesses();
    private final Path logs;
    private KubernetesRuntime runtime;

    private TrainingOperatorOnRealControlPlane(Path logs) {
        this.logs = logs;
    }

    /** Everything started; {@code gangSchedulerName} is the operator's {@code --gang-scheduler-name}. */
    static TrainingOperatorOnRealControlPlane start(RealControlPlane controlPlane, Path logs, String gangSchedulerName)
            throws InterruptedException {
        TrainingOperatorOnRealControlPlane operator = new TrainingOperatorOnRealControlPlane(logs);
        try {
            operator.startAll(controlPlane, gangSchedulerName);
        } catch (InterruptedException | RuntimeException e) {
            operator.close();
            throw e;
        }
        return operator;
    }

    /** Keeps the last lines of every peer's log beside the logs, named after a test. */
    void keepPeerLogs(String test) {
        Path file = logs.resolve(test.replaceAll("\\W+", "-") + ".peers.log");
        try {
            Files.writeString(file, peers.tails(60), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private void startAll(RealControlPlane controlPlane, String gangSchedulerName) throws InterruptedException {
        KubernetesClient client = controlPlane.client();
        CustomResourceDefinitions crds = new CustomResourceDefinitions(client);
        crds.install(KubeflowApi.class, KubeflowApi.CRDS);
        crds.install(CustomResourceDefinitions.class, CustomResourceDefinitions.SCHEDULER_PLUGINS_POD_GROUPS);
        client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata().withName(WEBHOOK_SECRET)
                .withNamespace(NAMESPACE).endMetadata().build()).serverSideApply();
        Map<String, InstalledPeer> installed = PeerInstaller.locate().install(List.of(PEER));
        Kwok.start(peers, controlPlane, logs, TrainingOperatorOnRealControlPlane.class, "/kwok/training-stages.yaml");
        peers.start(List.of(installed.get(PEER).executable().toString(),
                        "--gang-scheduler-name=" + gangSchedulerName,
                        "--enable-scheme=tfjob", "--enable-scheme=pytorchjob",
                        "--namespace=" + NAMESPACE,
                        "--metrics-bind-address=0", "--health-probe-bind-address=0",
                        "--webhook-server-port=" + freePort()),
                Map.of("KUBECONFIG", controlPlane.kubeconfig().toString(), "MY_POD_NAMESPACE", NAMESPACE),
                logs.resolve("training-operator-" + gangSchedulerName + ".log"));
        mountWebhookCertificate(client);
        RuntimeOptions options = new RuntimeOptions(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text(), Set.of("muster", "volcano"),
                Duration.ofMillis(200), Optional.empty());
        runtime = Guice.createInjector(new EngineModule(), new KubernetesModule(client), new RuntimeModule(options),
                new KubeflowBridgeModule(), new AbstractModule() {
                    @Override
                    protected void configure() {
                        bind(Clock.class).toInstance(Clock.systemUTC());
                    }
                }).getInstance(KubernetesRuntime.class);
        runtime.start();
    }

    /**
     * Does what the kubelet does for the operator's pod: its Deployment mounts the Secret at
     * {@link #CERTIFICATE_DIRECTORY} (fixed in {@code pkg/cert/cert.go}), and the operator registers its
     * controllers only once the rotator, having filled the Secret in, sees the certificate there.
     */
    private static void mountWebhookCertificate(KubernetesClient client) {
        await("the operator's certificate rotator fills in Secret " + WEBHOOK_SECRET).atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    Secret secret = client.secrets().inNamespace(NAMESPACE).withName(WEBHOOK_SECRET).get();
                    return secret != null && secret.getData() != null && secret.getData().containsKey("tls.crt")
                            && secret.getData().containsKey("tls.key");
                });
        Map<String, String> data = client.secrets().inNamespace(NAMESPACE).withName(WEBHOOK_SECRET).get().getData();
        try {
            Files.createDirectories(CERTIFICATE_DIRECTORY);
            for (Map.Entry<String, String> entry : data.entrySet()) {
                Path staged = CERTIFICATE_DIRECTORY.resolve("." + entry.getKey() + ".tmp");
                Files.write(staged, Base64.getDecoder().decode(entry.getValue()));
                Files.move(staged, CERTIFICATE_DIRECTORY.resolve(entry.getKey()), StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the operator's certificate to " + CERTIFICATE_DIRECTORY, e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for the operator's webhook server", e);
        }
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
}
