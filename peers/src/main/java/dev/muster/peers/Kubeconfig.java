package dev.muster.peers;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/** Writes a kubeconfig for one user of the control plane, the file kubectl and any client can use. */
final class Kubeconfig {
    static final String CONTEXT = "muster-real";

    private Kubeconfig() {}

    static Path write(Path file, String serverUrl, Path certificateAuthority, TokenUser user) throws IOException {
        String authorityData = Base64.getEncoder().encodeToString(Files.readAllBytes(certificateAuthority));
        String text = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: %1$s
                  cluster:
                    server: %2$s
                    certificate-authority-data: %3$s
                users:
                - name: %4$s
                  user:
                    token: %5$s
                contexts:
                - name: %1$s
                  context:
                    cluster: %1$s
                    user: %4$s
                current-context: %1$s
                """.formatted(CONTEXT, serverUrl, authorityData, user.name(), user.token());
        Files.writeString(file, text, UTF_8);
        return file;
    }
}
