package dev.muster.peers;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Runs small test classes that use the extension through JUnit's engine, as a build would, and
 * checks what the extension did around them. The nested classes are not run by surefire itself
 * (it skips nested classes).
 */
class RealControlPlaneExtensionTest {
    private static final AtomicReference<List<ProcessHandle>> PROCESSES = new AtomicReference<>();
    private static final AtomicReference<Path> KUBECONFIG = new AtomicReference<>();

    @Test
    void teardownLeavesNoProcessAndNoFileBehind() {
        EngineExecutionResults results = run(RecordsItsPeers.class);

        results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1).failed(0));
        List<ProcessHandle> peers = PROCESSES.get();
        assertThat(peers).hasSize(2);
        assertThat(peers).noneMatch(ProcessHandle::isAlive);
        assertThat(ProcessHandle.current().descendants()).as("processes this JVM started").isEmpty();
        assertThat(KUBECONFIG.get().getParent()).doesNotExist();
    }

    @Test
    void aPeerThatDiesFailsTheTestWithItsLastLogLines() {
        EngineExecutionResults results = run(KillsEtcd.class);

        results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(0).failed(1));
        Throwable failure = failures(results).get(0);
        assertThat(failure)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("a peer of the real control plane died during")
                .hasMessageContaining("etcd (pid")
                .hasMessageContaining("exited with code")
                .hasMessageContaining("its last log lines");
        assertThat(PROCESSES.get()).noneMatch(ProcessHandle::isAlive);
    }

    @Test
    void aFailingInstallerFailsTheClassAndSkipsNothing(@TempDir Path directory) throws IOException {
        Path installer = directory.resolve("install");
        Files.writeString(installer, """
                #!/usr/bin/env bash
                echo "peers/install: etcd v3.6.4 failed:" >&2
                echo "    go: reading the module proxy: 403 Forbidden" >&2
                exit 1
                """, UTF_8);
        Files.setPosixFilePermissions(installer, PosixFilePermissions.fromString("rwx------"));

        EngineExecutionResults results;
        System.setProperty(PeerInstaller.INSTALLER_PROPERTY, installer.toString());
        try {
            results = run(RecordsItsPeers.class);
        }
        finally {
            System.clearProperty(PeerInstaller.INSTALLER_PROPERTY);
        }

        results.testEvents().assertStatistics(stats -> stats.started(0).skipped(0).aborted(0));
        results.containerEvents().assertStatistics(stats -> stats.aborted(0).failed(1));
        Throwable failure = results.containerEvents().failed().stream()
                .map(event -> event.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow())
                .findFirst().orElseThrow();
        assertThat(failure)
                .isInstanceOf(PeerException.class)
                .hasMessageContaining("failed with exit code 1")
                .hasMessageContaining("etcd v3.6.4 failed")
                .hasMessageContaining("403 Forbidden");
        assertThat(PROCESSES.get()).isNull();
    }

    private static EngineExecutionResults run(Class<?> testClass) {
        PROCESSES.set(null);
        KUBECONFIG.set(null);
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute();
    }

    private static List<Throwable> failures(EngineExecutionResults results) {
        return results.testEvents().failed().stream()
                .map(Event::getPayload)
                .map(payload -> payload.orElseThrow())
                .map(TestExecutionResult.class::cast)
                .map(result -> result.getThrowable().orElseThrow())
                .collect(ImmutableList.toImmutableList());
    }

    @WithRealControlPlane(nodes = 0)
    static class RecordsItsPeers {
        @Test
        void recordsItsPeers(RealControlPlane controlPlane) {
            PROCESSES.set(ImmutableList.copyOf(controlPlane.processes().values()));
            KUBECONFIG.set(controlPlane.kubeconfig());
            assertThat(PROCESSES.get()).allMatch(ProcessHandle::isAlive);
            assertThat(Files.isRegularFile(controlPlane.kubeconfig())).isTrue();
        }
    }

    @WithRealControlPlane(nodes = 0)
    static class KillsEtcd {
        @Test
        void killsEtcd(RealControlPlane controlPlane) {
            PROCESSES.set(ImmutableList.copyOf(controlPlane.processes().values()));
            ProcessHandle etcd = controlPlane.processes().get(RealControlPlane.ETCD);
            etcd.destroyForcibly();
            await().atMost(Duration.ofSeconds(10)).until(() -> !etcd.isAlive());
        }
    }
}
