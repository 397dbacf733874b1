package dev.muster.peers;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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

    private Path script(String body) throws IOException {
        Path script = directory.resolve("clone").resolve("peers").resolve("install");
        Files.createDirectories(script.getParent());
        Files.writeString(script, "#!/usr/bin/env bash\n" + body, UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }
}
