package dev.muster.bench.sidebyside;

import static dev.muster.bench.sidebyside.SideRun.check;

import com.google.common.base.Splitter;
import com.google.common.base.Ticker;
import com.google.common.collect.ImmutableList;
import dev.muster.peers.ControlPlaneSpec;
import dev.muster.peers.Kwok;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.PeerProcesses;
import dev.muster.peers.RealControlPlane;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Muster restarted on a full cluster (issue 17, item 5): on one real control plane with KWOK's nodes, a
 * first {@code muster run} binds {@code --present} pods in gangs; it is stopped, {@code --pending} more
 * pods in gangs are created (so the cluster holds present plus pending pods), and a second
 * {@code muster run} is started. Printed: the second process's time from its start to the first and to
 * the last pending pod seen bound by a separate watch, and its CPU. Run it with
 * {@code benchmarks/side-by-side/restart}; figures in {@code benchmarks/README.md}.
 */
public final class Restart {
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Map<String, String> DEFAULTS = Map.of(
            "--nodes", "5000",
            "--present", "45000",
            "--pending", "5000",
            "--gang", "8",
            "--concurrency", "16",
            "--timeout-seconds", "1800",
            "--muster-java-options", "");

    private final PrintStream out = System.out;
    private final Ticker ticker = Ticker.systemTicker();
    private final Clock clock = Clock.systemUTC();
    private final Path repository;
    private final List<String> javaOptions;
    private final Duration timeout;

    private Restart(Path repository, List<String> javaOptions, Duration timeout) {
        this.repository = repository;
        this.javaOptions = ImmutableList.copyOf(javaOptions);
        this.timeout = timeout;
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Map<String, String> options = SideBySide.options(args, DEFAULTS, "restart");
        PeerInstaller installer = PeerInstaller.locate();
        Path repository = installer.script().toAbsolutePath().getParent().getParent();
        check(Files.isRegularFile(Schedulers.cliJar(repository)), "no %s: build it first (./mvnw -B -o -pl cli,benchmarks -am package -DskipTests)",
                Schedulers.cliJar(repository));
        Restart restart = new Restart(repository, Splitter.on(' ').omitEmptyStrings().splitToList(options.get("--muster-java-options")),
                Duration.ofSeconds(Long.parseLong(options.get("--timeout-seconds"))));
        int gang = Integer.parseInt(options.get("--gang"));
        restart.run(installer, Integer.parseInt(options.get("--nodes")), new Workload("default", Integer.parseInt(options.get("--present")), gang),
                new Workload("restart", Integer.parseInt(options.get("--pending")), gang), Integer.parseInt(options.get("--concurrency")));
    }

    private void run(PeerInstaller installer, int nodes, Workload present, Workload pending, int concurrency)
            throws IOException, InterruptedException {
        Path logs = Files.createTempDirectory("muster-restart-");
        out.printf("restart: %d nodes, %d pods bound by a first muster run, then %d pending pods, in gangs of %d; logs in %s%n",
                nodes, present.pods(), pending.pods(), present.gang(), logs);
        MachineLoad loadBefore = MachineLoad.now();
        // 32 cpu / 128Gi / 110 pods a node, as the side-by-side run's nodes
        ControlPlaneSpec spec = new ControlPlaneSpec(nodes, "32", "128Gi", 110);
        try (RealControlPlane controlPlane = RealControlPlane.start(installer, spec); PeerProcesses peers = new PeerProcesses()) {
            KubernetesClient client = controlPlane.client();
            Process kwok = Kwok.start(peers, controlPlane, logs, Restart.class);
            SideRun.awaitNodesRunning(client, kwok, nodes, timeout, ticker);
            long apiServer = controlPlane.processes().get(RealControlPlane.KUBE_APISERVER).pid();

            create(client, present, concurrency);
            try (BoundPods watch = BoundPods.watch(client, present.namespace(), present.pods(), ticker)) {
                long started = ticker.read();
                Process first = peers.start(Schedulers.musterRun(repository, javaOptions, controlPlane.kubeconfig()), Map.of(),
                        logs.resolve("muster-first.log"));
                awaitAllBound(first, watch, logs.resolve("muster-first.log"));
                out.printf("first muster run: %d pods bound in %.1f s; stopping it%n", watch.bound(), seconds(ticker.read() - started));
                stop(first);
            }

            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(pending.namespace()).endMetadata().build()).create();
            // no controller manager runs, so nobody makes the namespace's default ServiceAccount that admission looks up
            client.serviceAccounts().inNamespace(pending.namespace()).resource(new ServiceAccountBuilder().withNewMetadata()
                    .withName("default").endMetadata().build()).create();
            create(client, pending, concurrency);
            long settled = awaitRunning(client, present);
            out.printf("cluster before the restart: %d nodes, %d pods (the first run's %d Running, after %.1f s), %d PodGroups%n", nodes,
                    present.pods() + pending.pods(), present.pods(), seconds(settled), present.gangs() + pending.gangs());
            try (BoundPods watch = BoundPods.watch(client, pending.namespace(), pending.pods(), ticker)) {
                check(watch.awaitAllSeen(timeout) && watch.bound() == 0, "expected %s pending pods, none bound; seen %s, bound %s",
                        pending.pods(), watch.seen(), watch.bound());
                Duration apiServerBefore = ProcessCpu.of(apiServer);
                Path log = logs.resolve("muster-restarted.log");
                out.printf("restarted muster: starting at %s%n", clock.instant());
                long started = ticker.read();
                Process second = peers.start(Schedulers.musterRun(repository, javaOptions, controlPlane.kubeconfig()), Map.of(), log);
                boolean allBound = awaitAllBound(second, watch, log);
                long ended = watch.allBoundAt().orElse(ticker.read());
                out.printf("%-9s %6s %8s %8s %9s %9s %10s %10s %-16s %-16s%n", "nodes", "pods", "pending", "bound", "first s", "all s",
                        "muster cpu", "apisrv cpu", "load before", "load after");
                out.printf("%-9d %6d %8d %8d %9s %9s %10.1f %10.1f %-16s %-16s%n", nodes, present.pods() + pending.pods(), pending.pods(),
                        watch.bound(), watch.firstBoundAt().map(at -> String.format("%.1f", seconds(at - started))).orElse("-"),
                        allBound ? String.format("%.1f", seconds(ended - started)) : "timeout",
                        ProcessCpu.of(second.pid()).toMillis() / 1e3, ProcessCpu.of(apiServer).minus(apiServerBefore).toMillis() / 1e3,
                        loadBefore, MachineLoad.now());
            }
        }
    }

    /**
     * Waits until KWOK has marked every pod of {@code workload} Running, so the restart meets a settled
     * cluster rather than one still busy with status updates; returns how long that took.
     */
    private long awaitRunning(KubernetesClient client, Workload workload) throws InterruptedException {
        long started = ticker.read();
        while (true) {
            long running = client.pods().inNamespace(workload.namespace()).list().getItems().stream()
                    .filter(pod -> "Running".equals(phase(pod))).count();
            if (running == workload.pods()) {
                return ticker.read() - started;
            }
            check(ticker.read() - started < timeout.toNanos(), "KWOK marked %s of %s pods Running in %s", running, workload.pods(), timeout);
            Thread.sleep(POLL.toMillis() * 5);
        }
    }

    private void create(KubernetesClient client, Workload workload, int concurrency) throws InterruptedException {
        long creating = ticker.read();
        workload.create(client, Side.MUSTER, concurrency);
        out.printf("%s: %d pods and %d PodGroups created in %.1f s%n", workload.namespace(), workload.pods(), workload.gangs(),
                seconds(ticker.read() - creating));
    }

    private boolean awaitAllBound(Process muster, BoundPods watch, Path log) throws InterruptedException {
        long started = ticker.read();
        boolean allBound = false;
        while (!allBound && ticker.read() - started < timeout.toNanos()) {
            check(muster.isAlive(), "muster ended with exit code %s:%n%s", muster.isAlive() ? "" : muster.exitValue(),
                    PeerProcesses.tail(log, 30));
            allBound = watch.awaitAllBound(POLL);
        }
        return allBound;
    }

    /** SIGTERM, as a rolling update would stop it, then SIGKILL if it has not ended in a minute. */
    private static void stop(Process muster) throws InterruptedException {
        muster.destroy();
        if (!muster.waitFor(1, TimeUnit.MINUTES)) {
            muster.destroyForcibly().waitFor();
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    /** A pod's phase, empty when it has no status yet. */
    static String phase(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getPhase() == null ? "" : pod.getStatus().getPhase();
    }
}
