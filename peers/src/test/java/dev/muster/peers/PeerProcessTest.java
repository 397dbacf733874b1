package dev.muster.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerProcessTest {
    @TempDir
    Path directory;

    @Test
    void reportsThePeersOwnExitCodeAndLastLines() {
        PeerProcess peer = PeerProcess.start("failing", ImmutableList.of("bash", "-c", "echo first; echo 'bind: address already in use'; exit 3"),
                directory.resolve("failing.log"));

        await().atMost(Duration.ofSeconds(10)).until(() -> !peer.isAlive());

        assertThat(peer.report())
                .contains("failing (pid " + peer.pid() + ") exited with code 3")
                .contains("first")
                .endsWith("bind: address already in use");
    }

    @Test
    void closingEndsThePeerAndItsGuard() {
        PeerProcess peer = start();
        ProcessHandle guard = ProcessHandle.current().children().filter(child -> child.descendants().anyMatch(peer.handle()::equals))
                .findFirst().orElseThrow();

        peer.close();

        assertThat(peer.handle().isAlive()).isFalse();
        assertThat(guard.isAlive()).isFalse();
        assertThat(peer.isAlive()).isFalse();
    }

    @Test
    void closingAsksThePeerToStopBeforeKillingIt() {
        PeerProcess peer = PeerProcess.start("graceful",
                ImmutableList.of("bash", "-c", "sleep 600 & trap 'echo stopping on SIGTERM; kill $!; exit 0' TERM; echo up; wait"),
                directory.resolve("graceful.log"));
        await().atMost(Duration.ofSeconds(10)).until(() -> peer.lastLogLines(1).contains("up"));

        peer.close();

        assertThat(peer.report()).contains("exited with code 0").endsWith("stopping on SIGTERM");
    }

    @Test
    void thePeerDiesWithTheJvmThatStartedIt() throws IOException {
        PeerProcess peer = start();
        assertThat(peer.handle().isAlive()).isTrue();

        // what the kernel does to the pipe when this JVM is killed, shutdown hooks or not
        peer.closeGuardPipe();

        await().atMost(Duration.ofSeconds(10)).until(() -> !peer.handle().isAlive() && !peer.isAlive());
        assertThat(peer.report()).contains("exited with code 137");
    }

    @Test
    void aSignalToThePeerReachesThePeerItself() {
        PeerProcess peer = start();

        peer.handle().destroyForcibly();

        await().atMost(Duration.ofSeconds(10)).until(() -> !peer.isAlive());
        assertThat(peer.report()).contains("exited with code 137");
    }

    private PeerProcess start() {
        PeerProcess peer = PeerProcess.start("sleeper", ImmutableList.of("sleep", "600"), directory.resolve("sleeper.log"));
        assertThat(peer.handle().info().command()).hasValueSatisfying(command -> assertThat(command).endsWith("sleep"));
        return peer;
    }
}
