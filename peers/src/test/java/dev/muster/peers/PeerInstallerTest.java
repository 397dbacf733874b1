package dev.muster.peers;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerInstallerTest {
    @TempDir
    Path directory;

    @Test
    void readsOneLinePerPeer() throws IOException {
        PeerInstaller installer = new PeerInstaller(script("""
                echo "etcd v3.6.4 /cache/etcd-v3.6.4/etcd"
                echo "kube-apiserver v1.34.4 /cache/kube-apiserver-v1.34.4/kube-apiserver"
                """));

        Map<String, InstalledPeer> installed = installer.install(ImmutableList.of("etcd", "kube-apiserver"));

        assertThat(installed).containsOnly(
                Map.entry("etcd", new InstalledPeer("etcd", "v3.6.4", Path.of("/cache/etcd-v3.6.4/etcd"))),
                Map.entry("kube-apiserver", new InstalledPeer("kube-apiserver", "v1.34.4", Path.of("/cache/kube-apiserver-v1.34.4/kube-apiserver"))));
    }

    @Test
    void failsWithWhatTheInstallerSaid() throws IOException {
        PeerInstaller installer = new PeerInstaller(script("""
                echo "peers/install: etcd v3.6.4 failed:" >&2
                echo "    go: go.etcd.io/etcd/server/v3@v3.6.4: reading the module proxy: 404 Not Found" >&2
                exit 1
                """));

        assertThatThrownBy(() -> installer.install(ImmutableList.of("etcd")))
                .isInstanceOf(PeerException.class)
                .hasMessageContaining("failed with exit code 1")
                .hasMessageContaining("etcd v3.6.4 failed")
                .hasMessageContaining("404 Not Found");
    }

    @Test
    void failsWhenAPeerAskedForIsMissingFromTheOutput() throws IOException {
        PeerInstaller installer = new PeerInstaller(script("echo \"etcd v3.6.4 /cache/etcd-v3.6.4/etcd\""));

        assertThatThrownBy(() -> installer.install(ImmutableList.of("etcd", "kube-apiserver")))
                .isInstanceOf(PeerException.class)
                .hasMessageContaining("printed no line for [kube-apiserver]");
    }

    @Test
    void theRealInstallerRefusesAnUnknownPeerByName() {
        PeerInstaller installer = PeerInstaller.locate();

        assertThatThrownBy(() -> installer.install(ImmutableList.of("kube-controller-mangler")))
                .isInstanceOf(PeerException.class)
                .hasMessageContaining("unknown peer 'kube-controller-mangler'")
                .hasMessageContaining("failed: kube-controller-mangler (unknown)");
    }

    @Test
    void findsTheInstallerFromAnyDirectoryOfTheClone() throws IOException {
        Path installer = script("true");
        Path clone = installer.getParent().getParent();
        Path deep = Files.createDirectories(clone.resolve("a/b/c"));

        assertThat(PeerInstaller.find(deep)).contains(installer);
        assertThat(PeerInstaller.find(Files.createDirectories(directory.resolve("elsewhere")))).isEmpty();
    }

    @Test
    void everyPyPiPeerHasAPinFileThatPinsItsOwnRequirements() throws IOException {
        Path script = realInstaller();
        List<String> lines = Files.readAllLines(script, UTF_8).stream()
                .filter(line -> line.matches("^    \"[^\"|]+\\|[^|]+\\|pypi\\|.*")).toList();

        assertThat(lines).as("the installer's PyPI peers").hasSizeGreaterThanOrEqualTo(4);
        for (String line : lines) {
            String[] fields = line.trim().replace("\"", "").split("\\|");
            Path pins = script.resolveSibling("python").resolve(fields[0] + "-" + fields[1] + ".txt");
            assertThat(pins).as("the pin file of " + fields[0]).isRegularFile();
            List<String> pinned = Files.readAllLines(pins, UTF_8);
            for (String requirement : fields[3].split(" ")) {
                assertThat(pinned).as(pins + " pins what the peer line asks for").contains(requirement);
            }
            assertThat(pinned).as(pins + ": every package pinned to one release")
                    .allMatch(pin -> pin.startsWith("#") || pin.matches("[A-Za-z0-9_.\\-\\[\\]]+==[^=<>~ ]+"));
        }
    }

    @Test
    void aPyPiPeerWithoutItsPinFileIsRefusedBeforeAnythingIsInstalled() throws IOException, InterruptedException {
        // given: a clone whose installer has no peers/python/ folder
        Path copy = directory.resolve("clone").resolve("peers").resolve("install");
        Files.createDirectories(copy.getParent());
        Files.copy(realInstaller(), copy);
        Path cache = directory.resolve("cache");

        // when
        ProcessBuilder builder = new ProcessBuilder(copy.toString(), "spark").redirectErrorStream(true);
        builder.environment().put("MUSTER_PEERS_CACHE", cache.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), UTF_8);

        // then
        assertThat(process.waitFor()).isEqualTo(1);
        assertThat(output).contains("spark 4.2.0: peers/python/spark-4.2.0.txt is missing").contains("failed: spark 4.2.0");
        assertThat(cache).doesNotExist();
    }

    /** The clone's own installer: this module's directory is {@code peers/}, where surefire runs. */
    private static Path realInstaller() {
        Path script = Path.of("install").toAbsolutePath();
        assertThat(script).as("peers/install, run from the peers module").isExecutable();
        return script;
    }

    private Path script(String body) throws IOException {
        Path script = directory.resolve("clone").resolve("peers").resolve("install");
        Files.createDirectories(script.getParent());
        Files.writeString(script, "#!/usr/bin/env bash\n" + body, UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }
}
