package dev.muster.peers;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * KWOK (peer {@code kwok}) as the kubelet of a real control plane's nodes: it manages every node
 * ({@code --manage-all-nodes=true}) by the Stages of this module's {@code kwok/stages.yaml} (a node is
 * Ready, a bound pod starts and runs until deleted, a deleted pod goes) and any Stages a test adds,
 * such as pods of a workflow or a training job that end Succeeded.
 */
public final class Kwok {
    public static final String PEER = "kwok";
    static final String STAGES = "kwok/stages.yaml";

    private Kwok() {
    }

    /**
     * Starts KWOK against {@code controlPlane} as one of {@code processes}, its log and the Stages it
     * reads in {@code logs}. Each of {@code moreStages} is a classpath resource of {@code owner}, a
     * YAML stream of {@code kwok.x-k8s.io/v1alpha1} Stages.
     */
    public static Process start(PeerProcesses processes, RealControlPlane controlPlane, Path logs, Class<?> owner,
            String... moreStages) {
        requireNonNull(processes, "processes is null");
        InstalledPeer kwok = PeerInstaller.locate().install(List.of(PEER)).get(PEER);
        List<String> documents = new ArrayList<>();
        documents.add(resource(Kwok.class, STAGES));
        for (String stages : moreStages) {
            documents.add(resource(owner, stages));
        }
        Path stagesFile = logs.resolve("kwok-stages.yaml");
        try {
            Files.createDirectories(logs);
            Files.writeString(stagesFile, String.join("\n---\n", documents), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + stagesFile, e);
        }
        return processes.start(List.of(kwok.executable().toString(), "--kubeconfig", controlPlane.kubeconfig().toString(),
                "--manage-all-nodes=true", "--config", stagesFile.toString()), Map.of(), logs.resolve("kwok.log"));
    }

    private static String resource(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new PeerException("no KWOK Stages " + name + " beside " + owner.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read KWOK Stages " + name, e);
        }
    }
}
