package dev.muster.cli;

import static com.google.common.base.Preconditions.checkState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.common.collect.ImmutableList;
import dev.muster.peers.InstalledPeer;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.PeerProcesses;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@code muster up} for a test, run in this JVM on a thread of its own, as a user runs it beside real
 * peers: {@link #start} runs {@code muster up --port 0 --kubeconfig DIR/kubeconfig.yaml --period 100ms} (without
 * {@code --port} when the options say {@code --apiserver real})
 * with the test's options (nodes, {@code --peer}, {@code --scheduler}), waits for the kubeconfig it writes
 * and connects a client through that kubeconfig, whatever scheme and credentials it names. A test may
 * run a further peer against it ({@link #startPeer}).
 *
 * <p>Registered with {@code @RegisterExtension}, it captures muster up's output and, when the test fails,
 * prints that output and the last lines of every peer's log (those {@code --peer} started, which muster
 * up names, and the test's own); after each test it closes: the test's peers end, then muster up is
 * interrupted (its Ctrl-C) and stops its own peers. One made by {@link #forClass} is left running for the
 * class's next tests and closed by the class ({@code @AfterAll}), for tests that share a slow start (a peer
 * such as Airflow). Not thread-safe: one test thread uses it.
 */
final class MusterUpFixture implements AutoCloseable, AfterTestExecutionCallback, AfterEachCallback {
    private static final int RUNNING = -1;
    private static final int TAIL_LINES = 40;
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(1);
    /** How muster up names a peer's log in its usage text: {@code Peer: argo (... log /tmp/.../argo.log)}. */
    private static final Pattern PEER_LOG = Pattern.compile("^Peer: .*, log (.+)\\)$", Pattern.MULTILINE);

    private final Duration startTimeout;
    private final boolean closeAfterEach;
    private final StringWriter output = new StringWriter();
    private final AtomicInteger exitCode = new AtomicInteger(RUNNING);
    private final PeerProcesses peers = new PeerProcesses();
    private List<String> arguments = List.of();
    private Thread up;
    private Path kubeconfig;
    private KubernetesClient client;

    /** A fixture that waits up to {@code startTimeout} for muster up's kubeconfig (installing peers takes minutes the first time). */
    MusterUpFixture(Duration startTimeout) {
        this(startTimeout, true);
    }

    private MusterUpFixture(Duration startTimeout, boolean closeAfterEach) {
        this.startTimeout = startTimeout;
        this.closeAfterEach = closeAfterEach;
    }

    /**
     * A fixture that stays up after each test, for a {@code @TestInstance(PER_CLASS)} class whose tests run on
     * one muster up in turn; the class {@link #close() closes} it in its {@code @AfterAll}.
     */
    static MusterUpFixture forClass(Duration startTimeout) {
        return new MusterUpFixture(startTimeout, false);
    }

    /**
     * Starts muster up with these options beside the common ones, its kubeconfig in {@code directory}, and
     * returns a client of it once the kubeconfig is there; fails if muster up exits first.
     */
    KubernetesClient start(Path directory, String... options) {
        checkState(up == null, "muster up already started: %s", arguments);
        kubeconfig = directory.resolve("kubeconfig.yaml");
        ImmutableList.Builder<String> command = ImmutableList.<String>builder().add("up");
        if (!String.join(" ", options).contains("--apiserver real")) {
            // a real kube-apiserver takes a free port of its own, and muster up refuses --port with it
            command.add("--port", "0");
        }
        arguments = command.add("--kubeconfig", kubeconfig.toString(), "--period", "100ms").add(options).build();
        PrintWriter writer = new PrintWriter(output, true);
        up = new Thread(() -> exitCode.set(Main.execute(writer, writer, arguments.toArray(String[]::new))), "muster-up");
        up.start();
        await().atMost(startTimeout).until(() -> Files.exists(kubeconfig) || !up.isAlive());
        assertThat(exitCode.get()).as("muster up exited").isEqualTo(RUNNING);
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig.toFile())).build();
        return client;
    }

    /** The kubeconfig muster up wrote. */
    Path kubeconfig() {
        checkState(kubeconfig != null, "muster up not started");
        return kubeconfig;
    }

    /** A client of the cluster, through the kubeconfig muster up wrote; closed with the fixture. */
    KubernetesClient client() {
        checkState(client != null, "muster up not started");
        return client;
    }

    /** What muster up printed so far (its usage text, its log), for a test to read. */
    String output() {
        return output.toString();
    }

    /** Whether muster up still runs (it has not exited since it started). */
    boolean isRunning() {
        return up != null && up.isAlive();
    }

    /**
     * Installs the peer {@code name} through {@code peers/install} and runs the command made from its
     * executable against this cluster, its log in {@code log}; it ends when the fixture closes.
     */
    void startPeer(String name, Function<Path, List<String>> command, Path log) {
        InstalledPeer peer = PeerInstaller.locate().install(List.of(name)).get(name);
        peers.start(command.apply(peer.executable()), Map.of(), log);
    }

    /** The last {@code lines} lines of each peer's log the test started with {@link #startPeer}, for a failure message. */
    String peerTails(int lines) {
        return peers.tails(lines);
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        if (context.getExecutionException().isPresent() && up != null) {
            System.out.println(failureReport());
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        if (closeAfterEach) {
            close();
        }
    }

    /**
     * Interrupts muster up, as Ctrl-C does, and waits up to a minute for it to stop; answers its exit code, or
     * {@code -1} while it still runs. May be called again, and by {@link #close()}.
     */
    int stop() throws InterruptedException {
        checkState(up != null, "muster up not started");
        up.interrupt();
        up.join(STOP_TIMEOUT.toMillis());
        return exitCode.get();
    }

    /** Ends the test's peers, closes the client, and {@link #stop() stops} muster up. */
    @Override
    public void close() throws InterruptedException {
        peers.close();
        if (client != null) {
            client.close();
        }
        if (up != null) {
            stop();
        }
    }

    private String failureReport() {
        StringBuilder report = new StringBuilder("=== muster ").append(String.join(" ", arguments)).append(": ")
                .append(exitCode.get() == RUNNING ? "still running" : "exited with " + exitCode.get()).append(", its output:\n")
                .append(output).append('\n');
        Matcher peerLog = PEER_LOG.matcher(output.toString());
        while (peerLog.find()) {
            report.append(PeerProcesses.tail(Path.of(peerLog.group(1)), TAIL_LINES));
        }
        return report.append(peers.tails(TAIL_LINES)).toString();
    }
}
