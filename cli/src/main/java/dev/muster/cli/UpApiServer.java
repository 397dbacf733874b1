package dev.muster.cli;

import static java.lang.String.format;
import static java.util.Objects.requireNonNull;

import dev.muster.embedded.EmbeddedApiServer;
import dev.muster.peers.ControlPlaneSpec;
import dev.muster.peers.CustomResourceDefinitions;
import dev.muster.peers.PeerException;
import dev.muster.peers.RealControlPlane;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API server under {@code muster up}'s nodes, kubelet, scheduler and controllers: the embedded one,
 * or a real kube-apiserver and etcd. Everything else of {@code muster up} talks to it through a client and
 * a kubeconfig alone, so the same scenario runs on either.
 */
sealed interface UpApiServer extends AutoCloseable permits UpApiServer.Embedded, UpApiServer.Real {
    /**
     * Starts the chosen server; {@code port} is the embedded server's (0 for any free one), the real one takes
     * free loopback ports of its own.
     *
     * @throws java.io.UncheckedIOException when the embedded server cannot bind the port
     * @throws PeerException when etcd or kube-apiserver cannot be installed or do not start (their words in the message)
     */
    static UpApiServer start(ApiServerChoice choice, int port) {
        requireNonNull(choice, "choice is null");
        return switch (choice) {
            case EMBEDDED -> new Embedded(EmbeddedApiServer.start(port));
            case REAL -> Real.start();
        };
    }

    ApiServerChoice choice();

    /** {@code https://127.0.0.1:PORT}. */
    String url();

    /** What it is, for the usage text: which server, where, and what it keeps. */
    String description();

    /** A new client of the server, which does not retry on its own (Muster's retry policy is the one retry layer); the caller closes it. */
    KubernetesClient newClient();

    /**
     * Writes a kubeconfig for it at {@code path} (folders made as needed), whole or not at all: beside the path,
     * then moved onto it, so whoever waits for the file never reads half of one.
     */
    void writeKubeconfig(Path path) throws IOException;

    /**
     * Returns once the server serves the objects of every CRD it has (those {@code muster up} created included), so the
     * runtime's informers and controllers can list them.
     *
     * @throws PeerException naming the CRD and the server's last answer when a real one does not within a minute
     */
    void awaitServed(KubernetesClient client) throws InterruptedException;

    /** Stops the server; for the real one, ends kube-apiserver and etcd and deletes their directory. */
    @Override
    void close();

    /** The embedded server, in this JVM. */
    record Embedded(EmbeddedApiServer server) implements UpApiServer {
        public Embedded {
            requireNonNull(server, "server is null");
        }

        @Override
        public ApiServerChoice choice() {
            return ApiServerChoice.EMBEDDED;
        }

        @Override
        public String url() {
            return server.url();
        }

        @Override
        public String description() {
            // what the usage text has always said; its closing line says the rest
            return "a Kubernetes API server on " + server.url();
        }

        @Override
        public KubernetesClient newClient() {
            return server.newClient();
        }

        @Override
        public void writeKubeconfig(Path path) throws IOException {
            server.writeKubeconfig(path);
        }

        @Override
        public void awaitServed(KubernetesClient client) {
            // it serves a CRD's objects the moment the CRD is created
        }

        @Override
        public void close() {
            server.close();
        }
    }

    /** kube-apiserver and etcd, processes of their own; the kubeconfig is the admin user's ({@code system:masters}). */
    record Real(RealControlPlane controlPlane) implements UpApiServer {
        private static final Logger log = LoggerFactory.getLogger(Real.class);
        private static final Duration SERVED_TIMEOUT = Duration.ofMinutes(1);
        private static final Duration SERVED_POLL = Duration.ofMillis(200);

        public Real {
            requireNonNull(controlPlane, "controlPlane is null");
        }

        /**
         * Starts kube-apiserver and etcd with Muster's CRDs and no nodes ({@code muster up} makes its own), and serves the
         * one kind the embedded server serves beyond them: scheduler-plugins' PodGroups, which the Kubeflow bridge watches.
         */
        static Real start() {
            RealControlPlane controlPlane = RealControlPlane.start(ControlPlaneSpec.DEFAULT.withNodes(0));
            try {
                new CustomResourceDefinitions(controlPlane.client())
                        .install(CustomResourceDefinitions.class, CustomResourceDefinitions.SCHEDULER_PLUGINS_POD_GROUPS);
            } catch (RuntimeException e) {
                controlPlane.close();
                throw e;
            }
            return new Real(controlPlane);
        }

        @Override
        public ApiServerChoice choice() {
            return ApiServerChoice.REAL;
        }

        @Override
        public String url() {
            return controlPlane.serverUrl();
        }

        @Override
        public String description() {
            return "kube-apiserver " + RealControlPlane.KUBERNETES_VERSION + " on " + controlPlane.serverUrl()
                    + " (real, with etcd; RBAC, its admin's token in the kubeconfig)";
        }

        @Override
        public KubernetesClient newClient() {
            Config config = Config.fromKubeconfig(controlPlane.kubeconfig().toFile());
            config.setRequestRetryBackoffLimit(0);
            return new KubernetesClientBuilder().withConfig(config).build();
        }

        @Override
        public void writeKubeconfig(Path path) throws IOException {
            Path target = path.toAbsolutePath();
            Files.createDirectories(target.getParent());
            Path written = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
            try {
                Files.copy(controlPlane.kubeconfig(), written, StandardCopyOption.REPLACE_EXISTING);
                Files.move(written, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(written);
            }
        }

        /**
         * Lists each CRD's objects until it answers: kube-apiserver serves a new CRD's objects only once it is Established
         * and its watch cache is filled (429 "storage is (re)initializing" until then), and a controller whose first list
         * fails does not start.
         */
        @Override
        public void awaitServed(KubernetesClient client) throws InterruptedException {
            long started = System.nanoTime();
            long deadline = started + SERVED_TIMEOUT.toNanos();
            List<CustomResourceDefinition> crds = client.apiextensions().v1().customResourceDefinitions().list().getItems();
            for (CustomResourceDefinition crd : crds) {
                ResourceDefinitionContext resources = CustomResourceDefinitionContext.fromCrd(crd);
                while (true) {
                    try {
                        // resourceVersion 0: from the watch cache, as an informer's first list asks
                        client.genericKubernetesResources(resources).inAnyNamespace()
                                .list(new ListOptionsBuilder().withResourceVersion("0").withLimit(1L).build());
                        break;
                    } catch (KubernetesClientException e) {
                        if (System.nanoTime() > deadline) {
                            throw new PeerException(format("kube-apiserver did not serve CRD %s within %s s: %s",
                                    crd.getMetadata().getName(), SERVED_TIMEOUT.toSeconds(), e.getMessage()), e);
                        }
                        TimeUnit.MILLISECONDS.sleep(SERVED_POLL.toMillis());
                    }
                }
            }
            log.info("kube-apiserver serves the {} CRDs after {} ms", crds.size(), Duration.ofNanos(System.nanoTime() - started).toMillis());
        }

        @Override
        public void close() {
            controlPlane.close();
        }
    }
}
