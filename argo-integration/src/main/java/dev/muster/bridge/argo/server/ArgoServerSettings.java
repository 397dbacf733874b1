package dev.muster.bridge.argo.server;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/**
 * Where the Argo Server is and how to authenticate to it: its base URL ({@value #URL_SETTING}, e.g.
 * {@code https://argo-server.argo:2746}) and, when it runs with {@code --auth-mode client}, the bearer
 * token it passes on to Kubernetes ({@value #TOKEN_SETTING}); without one no {@code Authorization} header
 * is sent, as {@code --auth-mode server} expects.
 */
public record ArgoServerSettings(URI url, Optional<String> token) {
    public static final String URL_SETTING = "argo.server-url";
    public static final String TOKEN_SETTING = "argo.server-token";

    public ArgoServerSettings {
        requireNonNull(url, "url is null");
        requireNonNull(token, "token is null");
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException(URL_SETTING + " '" + url + "' is not an http or https URL with a host");
        }
        if (token.isPresent() && token.get().isBlank()) {
            throw new IllegalArgumentException(TOKEN_SETTING + " is empty; leave it out when the Argo Server runs with --auth-mode server");
        }
    }

    /**
     * Reads the URL as a user writes it.
     *
     * @throws IllegalArgumentException naming {@value #URL_SETTING} and the value when it is not an http(s) URL
     */
    public static ArgoServerSettings of(String url, Optional<String> token) {
        requireNonNull(url, "url is null");
        try {
            return new ArgoServerSettings(new URI(url.endsWith("/") ? url.substring(0, url.length() - 1) : url), token);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(URL_SETTING + " '" + url + "' is not a URL: " + e.getMessage(), e);
        }
    }
}
