package dev.muster.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.inject.Module;
import dev.muster.bridge.argo.ArgoBridgeModule;
import dev.muster.bridge.argo.server.ArgoServerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The Argo bridge's Argo Server on the command line of {@code muster run}: where it is, and the bearer token
 * from a file (never from the command line, which {@code ps} shows). Without a URL the bridge resumes the
 * workflows it admits through the Kubernetes API.
 */
final class ArgoOptions {
    @Option(names = "--argo-server-url", paramLabel = "URL", description = {
        "With --bridge argo: the Argo Server (e.g. https://argo-server.argo:2746) through which admitted workflows are",
        "resumed; without it they are resumed through the Kubernetes API."})
    private String url;

    @Option(names = "--argo-server-token-file", paramLabel = "FILE", description = {
        "A file holding the bearer token the Argo Server takes (--auth-mode client: a Kubernetes token), e.g. a mounted",
        "Secret; none for --auth-mode server."})
    private Path tokenFile;

    /**
     * The module that gives the argo bridge its server, empty without {@code --argo-server-url}.
     *
     * @throws IllegalArgumentException naming the option and the value when one is bad or given without the bridge
     */
    Optional<Module> runModule(boolean argoBridge) {
        if (url == null) {
            if (tokenFile != null) {
                throw new IllegalArgumentException("--argo-server-token-file needs --argo-server-url: where the Argo Server is");
            }
            return Optional.empty();
        }
        if (!argoBridge) {
            throw new IllegalArgumentException("--argo-server-url is for the argo bridge: add --bridge argo");
        }
        Optional<String> token = Optional.ofNullable(tokenFile).map(ArgoOptions::readToken);
        try {
            return Optional.of(ArgoBridgeModule.server(ArgoServerSettings.of(url, token)));
        } catch (IllegalArgumentException e) {
            // the settings' messages begin with the setting's name: name the option as the user gave it
            throw new IllegalArgumentException(e.getMessage().replace(ArgoServerSettings.URL_SETTING, "--argo-server-url"), e);
        }
    }

    private static String readToken(Path file) {
        try {
            String token = Files.readString(file, UTF_8).strip();
            if (token.isEmpty()) {
                throw new IllegalArgumentException("--argo-server-token-file: " + file + " is empty");
            }
            return token;
        } catch (IOException e) {
            throw new IllegalArgumentException("--argo-server-token-file: cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
