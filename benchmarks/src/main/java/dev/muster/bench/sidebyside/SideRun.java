package dev.muster.bench.sidebyside;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Ticker;
import dev.muster.peers.ControlPlaneSpec;
import dev.muster.peers.Kwok;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.PeerProcesses;
import dev.muster.peers.RealControlPlane;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One side on a control plane of its own: etcd and kube-apiserver started fresh, the nodes registered,
 * KWOK managing them, every pod created (none bound, since no scheduler runs yet), then the scheduler
 * started and the window measured until a separate watch has seen every pod bound.
 */
final class SideRun {
    private static final Duration POLL = Duration.ofSeconds(1);

    private final PeerInstaller installer;
    private final Schedulers schedulers;
    private final ControlPlaneSpec spec;
    private final Workload workload;
    private final int concurrency;
    private final Duration timeout;
    private final Ticker ticker;
    private final Clock clock;
    private final PrintStream out;

    SideRun(PeerInstaller installer, Schedulers schedulers, ControlPlaneSpec spec, Workload workload, int concurrency, Duration timeout,
            Ticker ticker, Clock clock, PrintStream out) {
        this.installer = requireNonNull(installer, "installer is null");
        this.schedulers = requireNonNull(schedulers, "schedulers is null");
        this.spec = requireNonNull(spec, "spec is null");
        this.workload = requireNonNull(workload, "workload is null");
        this.concurrency = concurrency;
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.ticker = requireNonNull(ticker, "ticker is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.out = requireNonNull(out, "out is null");
    }

    SideResult run(Side side, Path logs) throws IOException, InterruptedException {
        Files.createDirectories(logs);
        MachineLoad loadBefore = MachineLoad.now();
        try (RealControlPlane controlPlane = RealControlPlane.start(installer, spec); PeerProcesses peers = new PeerProcesses()) {
            KubernetesClient client = controlPlane.client();
            Process kwok = Kwok.start(peers, controlPlane, logs, SideRun.class);
            awaitNodesRunning(client, kwok, spec.nodes(), timeout, ticker);
            long creating = ticker.read();
            workload.create(client, side, concurrency);
            out.printf("%s: %d nodes managed by KWOK, %d pods%s created in %.1f s%n", side.label(), spec.nodes(), workload.pods(),
                    side.gangs() ? " and " + workload.gangs() + " PodGroups" : "", (ticker.read() - creating) / 1e9);
            try (BoundPods watch = BoundPods.watch(client, workload.namespace(), workload.pods(), ticker)) {
                check(watch.awaitAllSeen(timeout) && watch.bound() == 0,
                        "expected %s pods, none bound, before the scheduler starts; seen %s, bound %s", workload.pods(), watch.seen(), watch.bound());
                return measure(side, controlPlane, kwok, peers, watch, logs, loadBefore);
            }
        }
    }

    private SideResult measure(Side side, RealControlPlane controlPlane, Process kwok, PeerProcesses peers, BoundPods watch, Path logs,
            MachineLoad loadBefore) throws IOException, InterruptedException {
        Map<String, ProcessHandle> controlPlaneProcesses = controlPlane.processes();
        long apiServer = controlPlaneProcesses.get(RealControlPlane.KUBE_APISERVER).pid();
        long etcd = controlPlaneProcesses.get(RealControlPlane.ETCD).pid();
        Duration apiServerBefore = ProcessCpu.of(apiServer);
        Duration etcdBefore = ProcessCpu.of(etcd);
        Duration kwokBefore = ProcessCpu.of(kwok.pid());
        List<String> command = schedulers.command(side, controlPlane.kubeconfig(), logs);
        Path log = logs.resolve(side.label() + ".log");
        out.printf("%s: starting at %s: %s%n", side.label(), clock.instant(), String.join(" ", command));
        long started = ticker.read();
        Process scheduler = peers.start(command, Map.of(), log);
        boolean allBound = false;
        while (!allBound && ticker.read() - started < timeout.toNanos()) {
            check(scheduler.isAlive(), "%s ended with exit code %s:%n%s", side.label(), scheduler.isAlive() ? "" : scheduler.exitValue(),
                    PeerProcesses.tail(log, 30));
            allBound = watch.awaitAllBound(POLL);
        }
        long ended = watch.allBoundAt().orElse(ticker.read());
        Duration schedulerCpu = ProcessCpu.of(scheduler.pid());
        Duration apiServerCpu = ProcessCpu.of(apiServer).minus(apiServerBefore);
        Duration etcdCpu = ProcessCpu.of(etcd).minus(etcdBefore);
        Duration kwokCpu = ProcessCpu.of(kwok.pid()).minus(kwokBefore);
        Optional<Duration> firstBind = watch.firstBoundAt().map(first -> Duration.ofNanos(first - started));
        return new SideResult(side, spec.nodes(), workload.pods(), watch.bound(), firstBind, Duration.ofNanos(ended - started), allBound,
                schedulerCpu, apiServerCpu, etcdCpu, kwokCpu, loadBefore, MachineLoad.now());
    }

    /** KWOK's node Stage marks each node it took over {@code Running}; until then it is still busy with them. */
    static void awaitNodesRunning(KubernetesClient client, Process kwok, int expected, Duration timeout, Ticker ticker)
            throws InterruptedException {
        long started = ticker.read();
        while (true) {
            check(kwok.isAlive(), "KWOK ended with exit code %s", kwok.isAlive() ? "" : kwok.exitValue());
            List<Node> nodes = client.nodes().list().getItems();
            long running = nodes.stream().filter(node -> "Running".equals(node.getStatus().getPhase())).count();
            if (running == expected) {
                return;
            }
            check(ticker.read() - started < timeout.toNanos(), "KWOK took over %s of %s nodes in %s", running, expected, timeout);
            Thread.sleep(POLL.toMillis());
        }
    }

    static void check(boolean condition, String format, Object... arguments) {
        if (!condition) {
            throw new IllegalStateException(String.format(format, arguments));
        }
    }
}
