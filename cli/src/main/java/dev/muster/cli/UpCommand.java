package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import com.google.inject.Module;
import dev.muster.embedded.NodePool;
import dev.muster.engine.config.ConfigException;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.peers.PeerException;
import dev.muster.peers.RealControlPlane;
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

/**
 * {@code muster up}: a Kubernetes API server, simulated nodes and kubelet, and Muster, in one JVM, until interrupted;
 * or the same on a real kube-apiserver and etcd ({@code --apiserver real}).
 */
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
            "With --apiserver real, the same nodes, kubelet, scheduler, controllers and bridges run on a real kube-apiserver and",
            "etcd instead, so a scenario can be compared on both. No kube-controller-manager runs there unless --peer",
            "kube-controller-manager (it then also runs the garbage collector and the namespace controller): Muster keeps a",
            "default ServiceAccount in each namespace, which the API server's admission requires of pods, but without the",
            "controller manager a deleted object's dependents stay and a deleted namespace stays Terminating.",
            "Exit codes: 0 stopped, 2 bad options, configuration or nodes file, 1 the port cannot be served or the real API",
            "server cannot be installed or started."})
public final class UpCommand implements Callable<Integer> {
    static final String DEFAULT_NODES = "8:cpu=32,memory=128Gi,nvidia.com/gpu=8";
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    private final SchedulerConfigLoader configLoader;
    private final Clock clock;

    @Spec
    private CommandSpec spec;

    @Option(names = "--port", description = {"Port of the embedded API server on 127.0.0.1; 0 for any free one (default: ${DEFAULT-VALUE}).",
        "Not with --apiserver real, whose kube-apiserver and etcd take free ports of their own."})
    private int port = 6443;

    @Option(names = "--apiserver", paramLabel = "embedded|real", converter = ApiServerChoice.Converter.class,
            description = {"Which API server everything runs on: embedded (the default: in this JVM, in memory), or real:",
                "kube-apiserver " + RealControlPlane.KUBERNETES_VERSION + " and etcd (installed by peers/install the first time, then",
                "cached; RBAC on, the kubeconfig holds its admin's token), to compare the embedded server with the real one."})
    private ApiServerChoice apiServer = ApiServerChoice.EMBEDDED;

    @Option(names = "--kubeconfig", paramLabel = "PATH", description = "Where to write the kubeconfig (default: ${DEFAULT-VALUE}).")
    private Path kubeconfig = Path.of(System.getProperty("user.home"), ".kube", "muster-up.yaml");

    @Option(names = "--nodes", paramLabel = "[PREFIX:]COUNT:RESOURCES[:LABELS]", converter = NodePoolConverter.class,
            description = {"A pool of identical nodes, e.g. 8:cpu=32,memory=128Gi,nvidia.com/gpu=8 or",
                "cpu:16:cpu=64,memory=256Gi:zone=eu-west-1a,instance-type=m5.16xlarge",
                "(repeatable; default: " + DEFAULT_NODES + " unless --nodes-file is given)."})
    private List<NodePool> pools = List.of();

    @Option(names = "--nodes-file", paramLabel = "FILE", description = "Node objects (YAML or JSON) to create, e.g. from kubectl get nodes -o yaml.")
    private Path nodesFile;

    @Option(names = "--config", paramLabel = "FILE", description = "Scheduler configuration in volcano-scheduler.conf format (default: the built-in one, issue 18's; builtin:volcano for Volcano's Helm default, Muster's before it).")
    private Path config;

    @Option(names = "--period", paramLabel = "DURATION", converter = PeriodConverter.class,
            description = "Time between scheduling cycles (default: 500ms).")
    private Duration period = Duration.ofMillis(500);

    @Option(names = "--scheduler", paramLabel = "muster|none", converter = SchedulerChoice.Converter.class,
            description = {"Which scheduler the cluster gets: muster (the default), or none, to try another scheduler against it",
                "(e.g. kube-scheduler with the kubeconfig); Volcano's Job and JobFlow controllers and the kubelet run either way."})
    private SchedulerChoice scheduler = SchedulerChoice.MUSTER;

    @Option(names = "--peer", paramLabel = "NAME", converter = UpPeer.Converter.class, description = {
        "Also run a real peer against the cluster (repeatable): argo (Argo's workflow controller, for the Argo bridge, and Argo's",
        "executor, which the kubelet runs as local processes for resource templates' pods; Linux with unshare);",
        "argo-server (the Argo Server, its API and UI on http://127.0.0.1:2746, no token; workflow admission resumes through it);",
        "spark-operator (Kubeflow's spark-operator controller with Spark 4.2's spark-submit, for the Spark bridge);",
        "training-operator (Kubeflow's training operator with --gang-scheduler-name=volcano, for the Kubeflow bridge; Muster's own",
        "TFJob and PyTorchJob controller, on otherwise, is then off);",
        "airflow (Apache Airflow 3 standalone, from PyPI, its home beside the kubeconfig, with the Airflow bridge reading it);",
        "kube-controller-manager (its Job, Deployment and ReplicaSet controllers: batch/v1 Jobs and Deployments run; with",
        "--apiserver real also its garbage collector, namespace and serviceaccounts controllers).",
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
        Optional<Module> argoServer;
        try {
            airflowUp = airflow.upModule(peers.contains(UpPeer.AIRFLOW), kubeconfig, System.getenv());
            argoServer = ArgoServerUp.module(peers.contains(UpPeer.ARGO_SERVER));
        } catch (IllegalArgumentException e) {
            err.println("muster up: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        } catch (IOException e) {
            err.println("muster up: --peer airflow: cannot prepare Airflow's home beside " + kubeconfig + ": " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        if (apiServer == ApiServerChoice.REAL && spec.commandLine().getParseResult().hasMatchedOption("--port")) {
            err.println("muster up: --port " + port + " is the embedded API server's; --apiserver real runs kube-apiserver and etcd on free"
                    + " loopback ports of their own (the kubeconfig names them): leave --port out");
            return ExitCodes.BAD_INPUT;
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
                        .addAll(airflowUp.module().stream().toList()).addAll(argoServer.stream().toList()).build());
        if (scheduler == SchedulerChoice.NONE) {
            options = options.withoutScheduler();
        }
        options = options.withApiServer(apiServer);
        // before starting: a Ctrl-C while a real control plane starts waits for its cleanup, its directory deleted
        Runtime.getRuntime().addShutdownHook(hook);
        try (EmbeddedCluster cluster = EmbeddedCluster.start(options, clock)) {
            cluster.server().writeKubeconfig(kubeconfig);
            UpPeers running;
            try {
                running = UpPeers.start(peers, cluster, kubeconfig, apiServer);
            } catch (PeerException e) {
                err.println("muster up: --peer: " + e.getMessage());
                return ExitCodes.FAILURE;
            }
            try (running) {
                PrintWriter out = spec.commandLine().getOut();
                out.println(UpUsage.text(cluster, scheduler, bridges, kubeconfig));
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
        } catch (PeerException e) {
            if (stopping.getCount() == 0) {
                // Ctrl-C while kube-apiserver and etcd started: they share the terminal, got it too, and their start failed
                err.println("muster up: stopped while starting");
                return ExitCodes.OK;
            }
            err.println("muster up: --apiserver real: " + e.getMessage());
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
}
