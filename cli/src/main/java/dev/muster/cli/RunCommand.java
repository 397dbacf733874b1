package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import com.google.inject.Module;
import dev.muster.engine.config.ConfigException;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.jobs.runtime.VolcanoControllerTerm;
import dev.muster.jobs.runtime.VolcanoJobsModule;
import dev.muster.runtime.KubernetesRuntime;
import dev.muster.runtime.RuntimeOptions;
import dev.muster.runtime.history.HistoryCodec;
import dev.muster.runtime.history.HistoryOptions;
import dev.muster.runtime.leader.LeaseConfig;
import dev.muster.runtime.metrics.OperationsServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code muster run}: schedules a cluster's pods for real, until stopped. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Schedules the pods of a Kubernetes cluster: watches Nodes, Pods, PodGroups, Queues, PriorityClasses and",
            "HyperNodes, binds gangs whole, and writes PodGroup and Queue status, until interrupted. With --job-controllers,",
            "also runs Volcano's Job and JobFlow controllers.",
            "Without --kubeconfig, uses $KUBECONFIG, ~/.kube/config or the in-cluster service account.",
            "Exit codes: 0 stopped, 2 the configuration, kubeconfig or an option cannot be used."})
public final class RunCommand implements Callable<Integer> {
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);
    private static final int MAX_PORT = 65535;

    private final SchedulerConfigLoader configLoader;
    private final Clock clock;

    @Spec
    private CommandSpec spec;

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "The cluster to schedule.")
    private Path kubeconfig;

    @Option(names = "--config", paramLabel = "FILE", description = "Scheduler configuration in volcano-scheduler.conf format (default: the built-in one, issue 18's; builtin:volcano for Volcano's Helm default, Muster's before it).")
    private Path config;

    @Option(names = "--scheduler-name", paramLabel = "NAME", description = "Schedule pods whose spec.schedulerName is NAME (repeatable; default: muster).")
    private List<String> schedulerNames = List.of();

    @Option(names = "--period", paramLabel = "DURATION", converter = PeriodConverter.class,
            description = "Time between the end of one cycle and the start of the next (default: 1s).")
    private Duration period = Duration.ofSeconds(1);

    @Option(names = "--leader-elect", arity = "0..1", paramLabel = "BOOLEAN", fallbackValue = "true",
            description = "Schedule only while holding a Lease, so that several replicas can run (default: true in a cluster, false otherwise).")
    private Optional<Boolean> leaderElect = Optional.empty();

    @Option(names = "--lease-name", paramLabel = "NAME", description = "The Lease for leader election (default: muster-scheduler).")
    private String leaseName = "muster-scheduler";

    @Option(names = "--lease-namespace", paramLabel = "NAMESPACE",
            description = "The Lease's namespace (default: the service account's namespace in a cluster, else the kubeconfig's, else default).")
    private Optional<String> leaseNamespace = Optional.empty();

    @Option(names = "--lease-duration", paramLabel = "DURATION", converter = PeriodConverter.class,
            description = "How long a standby waits for a silent leader before taking over (default: 15s).")
    private Duration leaseDuration = LeaseConfig.DEFAULT_LEASE_DURATION;

    @Option(names = "--renew-deadline", paramLabel = "DURATION", converter = PeriodConverter.class,
            description = "How long a leader schedules without renewing its Lease (default: 10s).")
    private Duration renewDeadline = LeaseConfig.DEFAULT_RENEW_DEADLINE;

    @Option(names = "--retry-period", paramLabel = "DURATION", converter = PeriodConverter.class,
            description = "How often the Lease is renewed or looked at (default: 2s).")
    private Duration retryPeriod = LeaseConfig.DEFAULT_RETRY_PERIOD;

    @Option(names = "--job-controllers", description = {
        "Also run Volcano's Job and JobFlow controllers (batch.volcano.sh Jobs, flow.volcano.sh JobFlows), while scheduling.",
        "Off by default: never turn it on in a cluster where Volcano's controller-manager runs, or both would create and",
        "delete the same pods. Volcano Jobs ask for schedulerName volcano: add --scheduler-name volcano if no Volcano",
        "scheduler runs either. Needs the CRDs of deploy/crds.yaml."})
    private boolean jobControllers;

    @Option(names = "--bridge", paramLabel = "NAME", converter = Bridge.Converter.class, description = {
        "Run a bridge in the runtime (repeatable): argo (Argo Workflows' annotated fan-outs as gangs), kubeflow (TFJobs, PyTorchJobs),",
        "kubeflow-native (Muster's own TFJob and PyTorchJob controller: never where Kubeflow's training operator runs),",
        "airflow (Airflow's DAG runs, with --airflow-url).",
        "The cluster must serve the API the bridge reads (its CRDs installed); muster run checks before it starts."})
    private List<Bridge> bridges = new ArrayList<>();

    @Mixin
    private AirflowOptions airflow;

    @Mixin
    private ArgoOptions argo;

    @Option(names = "--job-resync", paramLabel = "DURATION", converter = PeriodConverter.class,
            description = "With --job-controllers: how often every Volcano Job is synced again, making again the plugin objects "
                    + "(Services, ConfigMaps, Secrets) deleted by hand (default: 30s).")
    private Duration jobResync = VolcanoControllerTerm.DEFAULT_RESYNC;

    @Option(names = "--job-history", paramLabel = "N",
            description = "How many finished jobs the leader keeps for shortestfirst's history argument, in the ConfigMap "
                    + "muster-job-history of the Lease's namespace (default: 1000, at most 5000).")
    private int jobHistory = HistoryOptions.DEFAULT_LIMIT;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve /metrics (Prometheus), /healthz and /readyz on this port; 0 disables (default: 8080).")
    private int metricsPort = 8080;

    @Inject
    public RunCommand(SchedulerConfigLoader configLoader, Clock clock) {
        this.configLoader = requireNonNull(configLoader, "configLoader is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        SchedulerConfigText configText;
        Config clientConfig;
        try {
            configText = SchedulerConfigText.read(Optional.ofNullable(config));
            configLoader.parse(configText.source(), configText.text());
            clientConfig = kubeconfig == null
                    ? Config.autoConfigure(null)
                    : Config.fromKubeconfig(readable(kubeconfig).toFile());
        } catch (ConfigException e) {
            err.println(e.getMessage());
            return ExitCodes.BAD_INPUT;
        } catch (IOException | RuntimeException e) {
            err.println("muster run: cannot read the kubeconfig " + (kubeconfig == null ? "" : kubeconfig + " ") + "(" + e.getMessage() + ")");
            return ExitCodes.BAD_INPUT;
        }
        // Muster's RetryPolicy is the one retry layer for writes; informers retry on their own
        clientConfig.setRequestRetryBackoffLimit(0);
        Optional<LeaseConfig> lease;
        try {
            lease = lease(clientConfig);
        } catch (IllegalArgumentException e) {
            err.println("muster run: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        Optional<Module> airflowSettings;
        Optional<Module> argoServer;
        try {
            airflowSettings = airflow.runModule(bridges.contains(Bridge.AIRFLOW), System.getenv());
            argoServer = argo.runModule(bridges.contains(Bridge.ARGO));
        } catch (IllegalArgumentException e) {
            err.println("muster run: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        if (jobHistory < 1 || jobHistory > HistoryCodec.MAX_JOBS) {
            err.println("muster run: --job-history must be between 1 and " + HistoryCodec.MAX_JOBS + ": " + jobHistory);
            return ExitCodes.BAD_INPUT;
        }
        if (metricsPort < 0 || metricsPort > MAX_PORT) {
            err.println("muster run: --metrics-port must be between 0 and " + MAX_PORT + ": " + metricsPort);
            return ExitCodes.BAD_INPUT;
        }
        LinkedHashSet<String> names = new LinkedHashSet<>(schedulerNames.isEmpty() ? List.of("muster") : schedulerNames);
        CountDownLatch stopping = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        // on SIGTERM, let the cycle in progress write its decisions before the JVM exits
        Thread shutdownHook = new Thread(() -> {
            stopping.countDown();
            try {
                stopped.await(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "muster-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        boolean interrupted = false;
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(clientConfig).build()) {
            List<String> unserved = bridges.stream().distinct().flatMap(bridge -> bridge.unservedBy(client).stream()).toList();
            if (!unserved.isEmpty()) {
                unserved.forEach(problem -> err.println("muster run: " + problem));
                return ExitCodes.BAD_INPUT;
            }
            List<Module> contributions = new ArrayList<>(Bridge.modules(bridges.stream().distinct().toList()));
            airflowSettings.ifPresent(contributions::add);
            argoServer.ifPresent(contributions::add);
            if (jobControllers) {
                contributions.add(new VolcanoJobsModule(jobResync));
            }
            KubernetesRuntime runtime = RuntimeAssembly.create(client, clock,
                    new RuntimeOptions(configText.source(), configText.text(), names, period, lease)
                            .withHistory(HistoryOptions.DEFAULTS.withLimit(jobHistory)), contributions);
            err.println("muster: scheduling pods of " + names + " on " + client.getMasterUrl() + ", a cycle every "
                    + period.toMillis() + " ms" + lease.map(config -> ", while leading on the Lease " + config.namespace() + "/"
                    + config.name() + " as " + config.identity()).orElse("")
                    + (jobControllers ? ", with Volcano's Job and JobFlow controllers" : "")
                    + (bridges.isEmpty() ? "" : ", with the bridges " + bridges.stream().distinct().map(Bridge::commandName).toList()));
            err.flush();
            Optional<OperationsServer> operations;
            try {
                operations = operations(runtime);
            } catch (IOException e) {
                err.println("muster run: cannot serve metrics on port " + metricsPort + " (" + e.getMessage() + ")");
                return ExitCodes.BAD_INPUT;
            }
            try {
                runtime.start();
                stopping.await();
            } catch (InterruptedException e) {
                // the thread running this command was interrupted (it runs embedded, e.g. in a test): stop as on SIGTERM
                interrupted = true;
            } finally {
                runtime.stop();
                operations.ifPresent(OperationsServer::close);
            }
        } finally {
            stopped.countDown();
            ShutdownHooks.remove(shutdownHook);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return ExitCodes.OK;
    }

    /** The Lease to campaign for, when leader election is on: explicitly, or by default inside a cluster. */
    private Optional<LeaseConfig> lease(Config clientConfig) {
        boolean inCluster = kubeconfig == null && System.getenv("KUBERNETES_SERVICE_HOST") != null;
        if (!leaderElect.orElse(inCluster)) {
            return Optional.empty();
        }
        String namespace = leaseNamespace.orElse(clientConfig.getNamespace() == null ? "default" : clientConfig.getNamespace());
        return Optional.of(new LeaseConfig(namespace, leaseName, identity(), leaseDuration, renewDeadline, retryPeriod));
    }

    /** The pod's name (HOSTNAME in a cluster) and a random suffix, unique per process as Kubernetes' components do. */
    private static String identity() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isEmpty()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "muster";
            }
        }
        return host + "_" + UUID.randomUUID();
    }

    private Optional<OperationsServer> operations(KubernetesRuntime runtime) throws IOException {
        if (metricsPort == 0) {
            return Optional.empty();
        }
        return Optional.of(OperationsServer.start(new InetSocketAddress(metricsPort), runtime.registry(), runtime.health()));
    }

    private static Path readable(Path path) throws IOException {
        if (!Files.isReadable(path)) {
            throw new IOException("no such readable file");
        }
        return path;
    }
}
