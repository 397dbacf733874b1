package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.embedded.EmbeddedApiServer;
import dev.muster.embedded.NodePool;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which bridges {@code muster run} and {@code muster up} put into the runtime, and what they check first. */
class BridgeCommandTest {
    @TempDir
    Path directory;

    @Test
    void runRefusesABridgeWhoseApiTheClusterDoesNotServeNamingTheBridgeAndTheResource() throws IOException {
        // given: an API server without Argo's CRDs
        try (EmbeddedApiServer server = EmbeddedApiServer.start(0)) {
            Path kubeconfig = directory.resolve("kubeconfig");
            server.writeKubeconfig(kubeconfig);

            // when
            CliRun run = CliRun.of("run", "--kubeconfig", kubeconfig.toString(), "--bridge", "argo");

            // then
            assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(run.stderr()).contains("muster run: --bridge argo needs argoproj.io/v1alpha1 workflows, which " + server.url())
                    .contains("does not serve: install its CRDs first");
        }
    }

    @Test
    void anUnknownBridgeIsRefusedListingTheKnownOnes() {
        CliRun run = CliRun.of("run", "--bridge", "oozie");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("unknown bridge 'oozie'; known: argo, kubeflow, kubeflow-native, spark, airflow");
    }

    @Test
    void upRefusesAnUnknownPeerListingTheKnownOnes() {
        CliRun run = CliRun.of("up", "--peer", "oozie");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("unknown peer 'oozie'; known: argo, argo-server, kube-controller-manager, spark-operator, airflow, "
                + "training-operator");
    }

    @Test
    void upRefusesTheArgoServerPeerWhenItsPortIsTakenBeforeStartingAnything(@TempDir Path directory) throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), ArgoServerUp.PORT));

            CliRun run = CliRun.of("up", "--peer", "argo", "--peer", "argo-server", "--kubeconfig", directory.resolve("kubeconfig").toString());

            assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(run.stderr()).contains("muster up: --peer argo-server: port 2746 on 127.0.0.1, the Argo Server's, is in use");
            assertThat(directory.resolve("kubeconfig")).doesNotExist();
        }
    }

    @Test
    void upRunsNativeKubeflowUnlessTheRealTrainingOperatorRuns() {
        assertThat(Bridge.forUp(false)).containsExactly(Bridge.values());
        assertThat(Bridge.forUp(true)).doesNotContain(Bridge.KUBEFLOW_NATIVE).contains(Bridge.KUBEFLOW);
    }

    @Test
    void upServesEveryBridgesApiSoEachRuns() throws IOException, InterruptedException {
        // given
        EmbeddedCluster.Options options = new EmbeddedCluster.Options(0, List.of(NodePool.parse("2:cpu=4,memory=8Gi")), Optional.empty(),
                SchedulerConfigText.builtIn(), Duration.ofMillis(200), false,
                Bridge.modules(List.of(Bridge.values())));

        // when
        try (EmbeddedCluster cluster = EmbeddedCluster.start(options, Clock.systemUTC())) {
            KubernetesClient client = cluster.client();

            // then
            for (Bridge bridge : Bridge.values()) {
                assertThat(bridge.unservedBy(client)).as(bridge.commandName()).isEmpty();
            }
        }
    }
}
