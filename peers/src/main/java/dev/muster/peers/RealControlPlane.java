package dev.muster.peers;

import static com.google.common.base.Preconditions.checkArgument;
import static java.lang.String.format;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real etcd and kube-apiserver on loopback, as installed by {@code peers/install}: free ports, a
 * temporary directory, a serving certificate that kube-apiserver generates itself, service-account
 * signing keys, two static-token users (an admin in {@code system:masters} and one with no
 * bindings), authorization {@code Node,RBAC}, the CRDs of {@code deploy/crds.yaml}, and nodes that
 * report Ready. No controller manager, scheduler or kubelet runs.
 *
 * <p>{@link #close()} ends both processes and deletes the directory; a shutdown hook does the same if
 * the JVM exits first. Thread-safe for reading; close it once.
 */
public final class RealControlPlane implements AutoCloseable {
    public static final String KUBERNETES_VERSION = "v1.34.4";
    public static final String ETCD = "etcd";
    public static final String KUBE_APISERVER = "kube-apiserver";

    private static final Logger log = LoggerFactory.getLogger(RealControlPlane.class);

    private final Path directory;
    private final PeerGroup peers;
    private final String serverUrl;
    private final Path kubeconfig;
    private final TokenUser admin;
    private final TokenUser unprivileged;
    private final KubernetesClient client;
    private final List<String> nodeNames;
    private final List<String> customResourceDefinitions;
    private final Duration startupTime;
    private final Map<String, List<String>> commands;
    private final String etcdUrl;

    private RealControlPlane(
            Path directory,
            PeerGroup peers,
            String serverUrl,
            Path kubeconfig,
            TokenUser admin,
            TokenUser unprivileged,
            KubernetesClient client,
            List<String> nodeNames,
            List<String> customResourceDefinitions,
            Duration startupTime,
            Map<String, List<String>> commands,
            String etcdUrl) {
        this.directory = directory;
        this.peers = peers;
        this.serverUrl = serverUrl;
        this.kubeconfig = kubeconfig;
        this.admin = admin;
        this.unprivileged = unprivileged;
        this.client = client;
        this.nodeNames = ImmutableList.copyOf(nodeNames);
        this.customResourceDefinitions = ImmutableList.copyOf(customResourceDefinitions);
        this.startupTime = startupTime;
        this.commands = ImmutableMap.copyOf(commands);
        this.etcdUrl = etcdUrl;
    }

    /** Installs (or finds cached) etcd and kube-apiserver with the clone's {@code peers/install} and starts them. */
    public static RealControlPlane start(ControlPlaneSpec spec) {
        return start(PeerInstaller.locate(), spec);
    }

    public static RealControlPlane start(PeerInstaller installer, ControlPlaneSpec spec) {
        requireNonNull(installer, "installer is null");
        requireNonNull(spec, "spec is null");
        long started = System.nanoTime();
        Map<String, InstalledPeer> installed = installer.install(ImmutableList.of(ETCD, KUBE_APISERVER));
        long afterInstall = System.nanoTime();
        Path directory;
        try {
            directory = Files.createTempDirectory("muster-control-plane-");
        }
        catch (IOException e) {
            throw new PeerException("cannot create a directory for the control plane: " + e.getMessage(), e);
        }
        PeerGroup peers = new PeerGroup(directory);
        KubernetesClient client = null;
        try {
            LoopbackPorts ports = LoopbackPorts.allocate(3);
            PeerCommands commands = new PeerCommands(directory, installed);
            String etcdUrl = "http://127.0.0.1:" + ports.get(0);
            List<String> etcdCommand = commands.etcd(etcdUrl, "http://127.0.0.1:" + ports.get(1));
            peers.start(ETCD, etcdCommand);
            peers.awaitHttpOk(ETCD, etcdUrl + "/health", Duration.ofSeconds(60));
            long afterEtcd = System.nanoTime();

            TokenUser admin = TokenUser.withRandomToken("muster-admin", ImmutableList.of("system:masters"));
            TokenUser unprivileged = TokenUser.withRandomToken("muster-unprivileged", ImmutableList.of());
            List<String> apiServerCommand = commands.kubeApiServer(etcdUrl, ports.get(2), ImmutableList.of(admin, unprivileged));
            PeerProcess apiServer = peers.start(KUBE_APISERVER, apiServerCommand);
            peers.awaitFile(apiServer, commands.servingKey(), Duration.ofSeconds(60));
            String serverUrl = "https://127.0.0.1:" + ports.get(2);
            Path kubeconfig = Kubeconfig.write(directory.resolve("kubeconfig"), serverUrl, commands.servingCertificate(), admin);
            client = clientFor(kubeconfig);
            peers.awaitReady(apiServer, client, serverUrl + "/readyz", Duration.ofMinutes(2));
            long afterApiServer = System.nanoTime();

            List<String> crds = new CustomResourceDefinitions(client).install();
            List<String> nodes = new ClusterNodes(client, Clock.systemUTC()).register(spec);
            // no controller manager runs, so nothing else creates the service account pods default to;
            // the API server creates the namespace itself, just after it reports ready
            KubernetesClient adminClient = client;
            peers.await(apiServer, "namespace default exists", Duration.ofSeconds(30))
                    .until(() -> adminClient.namespaces().withName("default").get() != null);
            client.serviceAccounts().inNamespace("default")
                    .resource(new ServiceAccountBuilder().withNewMetadata().withName("default").endMetadata().build())
                    .create();
            long ready = System.nanoTime();
            Duration startupTime = Duration.ofNanos(ready - started);
            log.info("real control plane at {} up in {} ms: install {} ms, etcd {} ms, kube-apiserver ready {} ms, {} CRDs and {} nodes {} ms",
                    serverUrl, millis(startupTime.toNanos()), millis(afterInstall - started), millis(afterEtcd - afterInstall),
                    millis(afterApiServer - afterEtcd), crds.size(), nodes.size(), millis(ready - afterApiServer));
            return new RealControlPlane(directory, peers, serverUrl, kubeconfig, admin, unprivileged, client, nodes, crds, startupTime,
                    ImmutableMap.of(ETCD, etcdCommand, KUBE_APISERVER, apiServerCommand), etcdUrl);
        }
        catch (IOException | RuntimeException e) {
            String reports = peers.reports();
            if (client != null) {
                client.close();
            }
            peers.close();
            throw new PeerException(format("the real control plane did not start: %s%n%s", e.getMessage(), reports), e);
        }
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }

    private static KubernetesClient clientFor(Path kubeconfig) {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig.toFile())).build();
    }

    /** The admin's client ({@code system:masters}), built from {@link #kubeconfig()}. */
    public KubernetesClient client() {
        return client;
    }

    /** A kubeconfig file for the admin user, for kubectl or a {@code muster run} process. */
    public Path kubeconfig() {
        return kubeconfig;
    }

    public String serverUrl() {
        return serverUrl;
    }

    public TokenUser admin() {
        return admin;
    }

    /** A user the API server authenticates but that no RBAC binding names. */
    public TokenUser unprivilegedUser() {
        return unprivileged;
    }

    /** A new client for one of this control plane's token users; the caller closes it. */
    public KubernetesClient newClient(TokenUser user) {
        checkArgument(user.equals(admin) || user.equals(unprivileged), "not a user of this control plane: %s", user);
        Path file = directory.resolve("kubeconfig-" + user.name());
        try {
            Kubeconfig.write(file, serverUrl, PeerCommands.servingCertificate(directory), user);
        }
        catch (IOException e) {
            throw new PeerException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return clientFor(file);
    }

    public List<String> nodeNames() {
        return nodeNames;
    }

    public List<String> customResourceDefinitions() {
        return customResourceDefinitions;
    }

    /** From the installer's start to the last node registered. */
    public Duration startupTime() {
        return startupTime;
    }

    /** The running peers' processes by name ({@link #ETCD}, {@link #KUBE_APISERVER}), for fault injection. */
    public Map<String, ProcessHandle> processes() {
        return peers.processes().stream().collect(ImmutableMap.toImmutableMap(PeerProcess::name, PeerProcess::handle));
    }

    /** For each peer that is no longer running: how it ended and its last log lines. Empty while all run. */
    public List<String> deadPeerReports() {
        return peers.processes().stream()
                .filter(peer -> !peer.isAlive())
                .map(PeerProcess::report)
                .collect(ImmutableList.toImmutableList());
    }

    /**
     * Stops a peer ({@link #ETCD} or {@link #KUBE_APISERVER}) as a fault a test injects: SIGTERM, then
     * SIGKILL if it still runs 5 s later. Its end is expected, so it
     * fails no test; {@link #start(String)} runs it again.
     */
    public void stop(String peer) {
        checkArgument(commands.containsKey(peer), "no peer %s; peers: %s", peer, commands.keySet());
        checkArgument(peers.running(peer), "%s is not running", peer);
        peers.stop(peer);
    }

    /**
     * Starts a stopped peer again, with the same command line, port, certificates and data (etcd's
     * directory is kept), and waits until it serves: etcd's {@code /health}, kube-apiserver's {@code /readyz}.
     */
    public void start(String peer) {
        checkArgument(commands.containsKey(peer), "no peer %s; peers: %s", peer, commands.keySet());
        checkArgument(!peers.running(peer), "%s is running already", peer);
        PeerProcess started = peers.start(peer, commands.get(peer));
        if (peer.equals(ETCD)) {
            peers.awaitHttpOk(ETCD, etcdUrl + "/health", Duration.ofSeconds(60));
        } else {
            peers.awaitReady(started, client, serverUrl + "/readyz", Duration.ofMinutes(2));
        }
    }

    /** {@link #stop(String)} then {@link #start(String)}. */
    public void restart(String peer) {
        stop(peer);
        start(peer);
    }

    /** Ends kube-apiserver, then etcd, and deletes the directory; a second call does nothing. */
    @Override
    public void close() {
        client.close();
        peers.close();
    }
}
