package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import com.google.inject.Module;
import dev.muster.embedded.NodePool;
import dev.muster.engine.config.ConfigException;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.peers.PeerException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code muster up}: a Kubernetes API server, simulated nodes and kubelet, and Muster, in one JVM, until interrupted. */
@Command(
        name = "up",
        mixinStandardHelpOptions = true,
        description = {
            "Starts, in this process, a Kubernetes API server on 127.0.0.1 (in memory, no authentication) with Muster's",
            "CRDs, simulated nodes, a simulated kubelet, the scheduler and Volcano's Job and JobFlow controllers, and",
            "writes a kubeconfig for kubectl.",
            "A bound pod runs for the duration in its muster.dev/duration annotation (e.g. 30s), then succeeds, or",
            "fails if its muster.dev/exit-code annotation is not 0; without a duration it runs until deleted.",
            "Muster is the cluster's only scheduler: it schedules pods that name muster, volcano (as Volcano Jobs ask) or no",
            "scheduler at all (the API server's default-scheduler), so manifests written for any cluster run unchanged.",
            "Runs until interrupted (Ctrl-C).",
            "Exit codes: 0 stopped, 2 bad options, configuration or nodes file, 1 the port cannot be served."})
public final class UpCommand implements Callable<Integer> {
    static final String DEFAULT_NODES = "8:cpu=32,memory=128Gi,nvidia.com/gpu=8";
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    private final SchedulerConfigLoader configLoader;
    private final Clock clock;

    @Spec
    private CommandSpec spec;

    @Option(names = "--port", description = "Port of the API server on 127.0.0.1; 0 for any free one (default: ${DEFAULT-VALUE}).")
    private int port = 6443;

    @Option(names = "--kubeconfig", paramLabel = "PATH", description = "Where to write the kubeconfig (default: ${DEFAULT-VALUE}).")
    private Path kubeconfig = Path.of(System.getProperty("user.home"), ".kube", "muster-up.yaml");

    @Option(names = "--nodes", paramLabel = "[PREFIX:]COUNT:RESOURCES[:LABELS]", converter = NodePoolConverter.class,
            description = {"A pool of identical nodes, e.g. 8:cpu=32,memory=128Gi,nvidia.com/gpu=8 or",
                "cpu:16:cpu=64,memory=256Gi:zone=eu-west-1a,instance-type=m5.16xlarge",
                "(repeatable; default: " + DEFAULT_NODES + " unless --nodes-file is given)."})
    private List<NodePool> pools = List.of();

    @Option(names = "--nodes-file", paramLabel = "FILE", description = "Node objects (YAML or JSON) to create, e.g. from kubectl get nodes -o yaml.")
    private Path nodesFile;

    @Option(names = "--config", paramLabel = "FILE", description = "Scheduler configuration in volcano-scheduler.conf format (default: the built-in one; builtin:volcano for Volcano's Helm default).")
    private Path config;

    @Option(names = "--period", paramLabel = "DURATION", converter = PeriodConverter.class,
            description = "Time between scheduling cycles (default: 500ms).")
    private Duration period = Duration.ofMillis(500);

    @Option(names = "--scheduler", paramLabel = "muster|none", converter = SchedulerChoice.Converter.class,
            description = {"Which scheduler the cluster gets: muster (the default), or none, to try another scheduler against it",
                "(e.g. kube-scheduler with the kubeconfig); Volcano's Job and JobFlow controllers and the kubelet run either way."})
    private SchedulerChoice scheduler = SchedulerChoice.MUSTER;

    @Option(names = "--peer", paramLabel = "NAME", converter = UpPeer.Converter.class, description = {
        "Also run a real peer against the cluster (repeatable): argo (Argo's workflow controller, for the Argo bridge);",
        "spark-operator (Kubeflow's spark-operator controller with Spark 4.2's spark-submit, for the Spark bridge);",
        "training-operator (Kubeflow's training operator with --gang-scheduler-name=volcano, for the Kubeflow bridge; Muster's own",
        "TFJob and PyTorchJob controller, on otherwise, is then off);",
        "airflow (Apache Airflow 3 standalone, from PyPI, its home beside the kubeconfig, with the Airflow bridge reading it);",
        "kube-controller-manager (its Job, Deployment and ReplicaSet controllers: batch/v1 Jobs and Deployments run).",
        "Installed by peers/install from the Go module proxy the first time (minutes); its log goes to a temporary directory."})
    private List<UpPeer> peers = new ArrayList<>();

    @Mixin
    private AirflowOptions airflow;

    @Inject
    public UpCommand(SchedulerConfigLoader configLoader, Clock clock) {
        this.configLoader = requireNonNull(configLoader, "configLoader is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        SchedulerConfigText configText;
        try {
            configText = SchedulerConfigText.read(Optional.ofNullable(config));
            configLoader.parse(configText.source(), configText.text());
        } catch (ConfigException e) {
            err.println(e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        AirflowOptions.Up airflowUp;
        try {
            airflowUp = airflow.upModule(peers.contains(UpPeer.AIRFLOW), kubeconfig, System.getenv());
        } catch (IllegalArgumentException e) {
            err.println("muster up: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        } catch (IOException e) {
            err.println("muster up: --peer airflow: cannot prepare Airflow's home beside " + kubeconfig + ": " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        List<NodePool> nodePools = pools.isEmpty() && nodesFile == null ? List.of(NodePool.parse(DEFAULT_NODES)) : pools;
        CountDownLatch stopping = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stopping.countDown();
            try {
                stopped.await(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "muster-shutdown");
        boolean interrupted = false;
        // every bridge: the embedded server serves their CRDs, so each is there to try; native Kubeflow only without the operator
        List<Bridge> bridges = Bridge.forUp(peers.contains(UpPeer.TRAINING_OPERATOR));
        EmbeddedCluster.Options options = new EmbeddedCluster.Options(port, nodePools, Optional.ofNullable(nodesFile), configText,
                period, true, ImmutableList.<Module>builder().addAll(Bridge.modules(bridges))
                        .addAll(airflowUp.module().stream().toList()).build());
        if (scheduler == SchedulerChoice.NONE) {
            options = options.withoutScheduler();
        }
        try (EmbeddedCluster cluster = EmbeddedCluster.start(options, clock)) {
            cluster.server().writeKubeconfig(kubeconfig);
            Runtime.getRuntime().addShutdownHook(hook);
            UpPeers running;
            try {
                running = UpPeers.start(peers, cluster.client(), kubeconfig);
            } catch (PeerException e) {
                err.println("muster up: --peer: " + e.getMessage());
                return ExitCodes.FAILURE;
            }
            try (running) {
                PrintWriter out = spec.commandLine().getOut();
                out.println(usage(cluster, bridges));
                running.describe().forEach(peer -> out.println("Peer: " + peer));
                out.println(airflowUp.description());
                out.flush();
                interrupted = awaitStop(stopping);
            }
            err.println("muster up: stopping");
            err.flush();
        } catch (UncheckedIOException e) {
            err.println("muster up: " + e.getCause().getMessage());
            return ExitCodes.FAILURE;
        } catch (IOException e) {
            err.println("muster up: cannot read " + (nodesFile == null ? "" : nodesFile + " ") + "or write " + kubeconfig + ": "
                    + e.getMessage());
            return ExitCodes.BAD_INPUT;
        } finally {
            stopped.countDown();
            ShutdownHooks.remove(hook);
        }
        if (interrupted) {
            // stopped by an interrupt (as a test or an embedding program stops it): cleanly, and the caller still sees it
            Thread.currentThread().interrupt();
        }
        return ExitCodes.OK;
    }

    /** Waits for the JVM's shutdown or an interrupt; true if interrupted, so that shutting down can still wait for the scheduler. */
    private static boolean awaitStop(CountDownLatch stopping) {
        try {
            stopping.await();
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    private String usage(EmbeddedCluster cluster, List<Bridge> bridges) {
        if (scheduler == SchedulerChoice.NONE) {
            return """
                    muster up: a Kubernetes API server on %s with %s, and no scheduler: pods stay pending until one binds them.
                    Volcano's job controllers still run: a Job gets its PodGroup, and its pods once a scheduler admits it
                    (phase Inqueue), as Volcano's controller does; the simulated kubelet runs whatever is bound.

                      export KUBECONFIG=%s
                      kube-scheduler --kubeconfig "$KUBECONFIG"      # or any scheduler to try against it

                    Everything is in memory and unauthenticated, on 127.0.0.1 only. Ctrl-C stops it."""
                    .formatted(cluster.server().url(), describe(cluster.nodes()), kubeconfig.toAbsolutePath());
        }
        return """
                muster up: a Kubernetes API server on %s with %s, scheduled by Muster.
                Muster is its only scheduler: it schedules pods whose spec.schedulerName is %s (the API server's default,
                for a pod that names none); muster.dev/duration: 30s makes one finish after 30 s.
                Volcano Jobs and JobFlows run too: kubectl apply -f examples/jobs/
                Bridges: %s.

                  export KUBECONFIG=%s
                  kubectl apply -f examples/up/training.yaml
                  kubectl get pods -o wide
                  kubectl get podgroups,queues

                Everything is in memory and unauthenticated, on 127.0.0.1 only. Ctrl-C stops it."""
                .formatted(cluster.server().url(), describe(cluster.nodes()), orList(EmbeddedCluster.SCHEDULER_NAMES.asList()),
                        String.join("; ", bridges.stream().map(bridge -> bridge.commandName() + " (" + bridge.description() + ")").toList()),
                        kubeconfig.toAbsolutePath());
    }

    /** "a, b or c". */
    private static String orList(List<String> names) {
        return names.size() < 2 ? String.join("", names)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    private static String describe(List<String> nodes) {
        return switch (nodes.size()) {
            case 0 -> "no nodes";
            case 1 -> "1 simulated node (" + nodes.get(0) + ")";
            default -> nodes.size() + " simulated nodes (" + nodes.get(0) + " to " + nodes.get(nodes.size() - 1) + ")";
        };
    }
}
