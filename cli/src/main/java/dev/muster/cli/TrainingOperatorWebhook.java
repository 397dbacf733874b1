package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Kubeflow's training operator v1.9 needs of a pod's surroundings for its webhook server, given to it
 * on {@code muster up}: the Secret its certificate rotator fills in (its manifests create it empty), and
 * that Secret's files in the directory a cluster's kubelet would mount it at. v1.9.4 has no flag for that
 * directory ({@code pkg/cert/cert.go} fixes it), so the files go to the fixed path, as
 * {@code kubeflow-bridge}'s tests write them. No ValidatingWebhookConfiguration is made, so the API
 * server never calls the operator's webhooks.
 */
final class TrainingOperatorWebhook {
    static final String NAMESPACE = "default";
    /** The Secret {@code --webhook-secret-name} names by default. */
    static final String SECRET = "training-operator-webhook-cert";
    static final Path CERTIFICATE_DIRECTORY = Path.of("/tmp/k8s-webhook-server/serving-certs");
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Logger log = LoggerFactory.getLogger(TrainingOperatorWebhook.class);

    private TrainingOperatorWebhook() {}

    /**
     * Creates the empty Secret, and starts a daemon thread that writes its certificate to
     * {@link #CERTIFICATE_DIRECTORY} once the operator's rotator has filled it in.
     */
    static void prepare(KubernetesClient client) {
        requireNonNull(client, "client is null");
        if (client.secrets().inNamespace(NAMESPACE).withName(SECRET).get() == null) {
            client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata().withName(SECRET).withNamespace(NAMESPACE)
                    .endMetadata().build()).create();
        }
        Thread mount = new Thread(() -> mountWhenFilled(client), "training-operator-certificate");
        mount.setDaemon(true);
        mount.start();
    }

    private static void mountWhenFilled(KubernetesClient client) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Secret secret = client.secrets().inNamespace(NAMESPACE).withName(SECRET).get();
                if (secret != null && secret.getData() != null && secret.getData().containsKey("tls.crt")
                        && secret.getData().containsKey("tls.key")) {
                    write(secret.getData());
                    log.info("the training operator's certificate, from Secret {}/{}, written to {}", NAMESPACE, SECRET, CERTIFICATE_DIRECTORY);
                    return;
                }
                Thread.sleep(POLL.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the cluster went away (muster up stopping) or the directory cannot be written: the operator then waits, and says so in its log
            log.warn("the training operator's certificate was not written to {}: {}", CERTIFICATE_DIRECTORY, e.toString());
        }
    }

    private static void write(Map<String, String> data) {
        try {
            Files.createDirectories(CERTIFICATE_DIRECTORY);
            for (Map.Entry<String, String> entry : data.entrySet()) {
                Path staged = CERTIFICATE_DIRECTORY.resolve("." + entry.getKey() + ".tmp");
                Files.write(staged, Base64.getDecoder().decode(entry.getValue()));
                Files.move(staged, CERTIFICATE_DIRECTORY.resolve(entry.getKey()), StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the training operator's certificate to " + CERTIFICATE_DIRECTORY, e);
        }
    }

    /** A free loopback port for the operator's webhook server, which would otherwise take 9443. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for the training operator's webhook server", e);
        }
    }
}
