package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.muster.engine.config.ConfigException;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.SessionConfig;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code muster run}: schedules a cluster's pods for real, until stopped. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Schedules the pods of a Kubernetes cluster: watches Nodes, Pods, PodGroups, Queues, PriorityClasses and",
            "HyperNodes, binds gangs whole, and writes PodGroup and Queue status, until interrupted.",
            "Without --kubeconfig, uses $KUBECONFIG, ~/.kube/config or the in-cluster service account.",
            "Exit codes: 0 stopped, 2 the configuration or kubeconfig cannot be read."})
public final class RunCommand implements Callable<Integer> {
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    private final SchedulerConfigLoader configLoader;
    private final Clock clock;

    @Spec
    private CommandSpec spec;

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "The cluster to schedule.")
    private Path kubeconfig;

    @Option(names = "--config", paramLabel = "FILE", description = "Scheduler configuration in volcano-scheduler.conf format (default: the built-in one).")
    private Path config;

    @Option(names = "--scheduler-name", paramLabel = "NAME", description = "Schedule pods whose spec.schedulerName is NAME (repeatable; default: muster).")
    private List<String> schedulerNames = List.of();

    @Option(names = "--period", paramLabel = "DURATION", converter = PeriodConverter.class,
            description = "Time between the end of one cycle and the start of the next (default: 1s).")
    private Duration period = Duration.ofSeconds(1);

    @Inject
    public RunCommand(SchedulerConfigLoader configLoader, Clock clock) {
        this.configLoader = requireNonNull(configLoader, "configLoader is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        SessionConfig sessionConfig;
        Config clientConfig;
        try {
            sessionConfig = config == null
                    ? configLoader.parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text())
                    : configLoader.load(config);
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
        LinkedHashSet<String> names = new LinkedHashSet<>(schedulerNames.isEmpty() ? List.of("muster") : schedulerNames);
        CountDownLatch stopping = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        // on SIGTERM, let the cycle in progress write its decisions before the JVM exits
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping.countDown();
            try {
                stopped.await(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "muster-shutdown"));
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(clientConfig).build()) {
            KubernetesRuntime runtime = new KubernetesRuntime(client, sessionConfig, names, period, clock);
            err.println("muster: scheduling pods of " + names + " on " + client.getMasterUrl() + ", a cycle every "
                    + period.toMillis() + " ms");
            err.flush();
            try {
                runtime.start();
                stopping.await();
            } finally {
                runtime.stop();
            }
        } finally {
            stopped.countDown();
        }
        return ExitCodes.OK;
    }

    private static Path readable(Path path) throws IOException {
        if (!Files.isReadable(path)) {
            throw new IOException("no such readable file");
        }
        return path;
    }
}
