package dev.muster.bench.sidebyside;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The command lines of the two schedulers. Muster is {@code muster run} as {@code ./muster} starts it
 * (the cli module's jar and {@code cli/target/lib}, default JVM options unless given), without metrics
 * or leader election. kube-scheduler runs its default profile from a KubeSchedulerConfiguration that
 * only names the kubeconfig, turns leader election off and sets the client's QPS and burst: fabric8's
 * client, which Muster uses, has no rate limiter, so kube-scheduler gets one high enough never to
 * throttle (its default, 50 and 100, would cap it near 50 binds a second).
 */
record Schedulers(Path repository, Path kubeScheduler, List<String> musterJavaOptions, int kubeSchedulerQps, int kubeSchedulerBurst) {
    Schedulers {
        requireNonNull(repository, "repository is null");
        requireNonNull(kubeScheduler, "kubeScheduler is null");
        musterJavaOptions = ImmutableList.copyOf(musterJavaOptions);
    }

    Path cliJar() {
        return cliJar(repository);
    }

    List<String> command(Side side, Path kubeconfig, Path directory) throws IOException {
        return switch (side) {
            case MUSTER -> muster(kubeconfig);
            case KUBE_SCHEDULER -> kubeScheduler(kubeconfig, directory);
        };
    }

    private List<String> muster(Path kubeconfig) {
        return musterRun(repository, musterJavaOptions, kubeconfig);
    }

    static Path cliJar(Path repository) {
        return repository.resolve("cli/target/cli-0.1.0-SNAPSHOT.jar");
    }

    /** {@code muster run} on this repository's built jars with {@code javaOptions}, as the benchmarks start it. */
    static List<String> musterRun(Path repository, List<String> javaOptions, Path kubeconfig) {
        return ImmutableList.<String>builder()
                .add(Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .addAll(javaOptions)
                .add("-cp", cliJar(repository) + ":" + repository.resolve("cli/target/lib") + "/*", "dev.muster.cli.Main", "run",
                        "--kubeconfig", kubeconfig.toString(), "--metrics-port", "0")
                .build();
    }

    private List<String> kubeScheduler(Path kubeconfig, Path directory) throws IOException {
        Path config = directory.resolve("kube-scheduler.yaml");
        Files.writeString(config, """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                clientConnection:
                  kubeconfig: %s
                  qps: %d
                  burst: %d
                leaderElection:
                  leaderElect: false
                """.formatted(kubeconfig, kubeSchedulerQps, kubeSchedulerBurst), UTF_8);
        return ImmutableList.of(kubeScheduler.toString(), "--config", config.toString(), "--secure-port=0");
    }
}
