package dev.muster.bridge.airflow.api;

import static com.google.common.base.Preconditions.checkArgument;
import static java.lang.String.format;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import dev.muster.engine.api.GoDuration;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * How to reach one Airflow's REST API. {@link #parse} reads them from settings named as in
 * {@code docs/bridges.md} ({@code airflow.url}, ...); a bad one fails at start with a message naming the
 * setting and its value. The password is never printed.
 */
public record AirflowSettings(
        URI url,
        AirflowApiVersion apiVersion,
        String username,
        String password,
        Optional<Path> caFile,
        Duration connectTimeout,
        Duration requestTimeout,
        int retries,
        Duration backoffMin,
        Duration backoffMax) {
    public static final String URL = "airflow.url";
    public static final String API_VERSION = "airflow.api-version";
    public static final String USERNAME = "airflow.username";
    public static final String PASSWORD = "airflow.password";
    public static final String CA_FILE = "airflow.ca-file";
    public static final String CONNECT_TIMEOUT = "airflow.connect-timeout";
    public static final String REQUEST_TIMEOUT = "airflow.request-timeout";
    public static final String RETRIES = "airflow.retries";
    public static final String BACKOFF_MIN = "airflow.backoff-min";
    public static final String BACKOFF_MAX = "airflow.backoff-max";
    /** Every setting {@link #parse} reads. */
    public static final ImmutableSet<String> NAMES = ImmutableSet.of(URL, API_VERSION, USERNAME, PASSWORD, CA_FILE, CONNECT_TIMEOUT,
            REQUEST_TIMEOUT, RETRIES, BACKOFF_MIN, BACKOFF_MAX);

    public AirflowSettings {
        requireNonNull(url, "url is null");
        requireNonNull(apiVersion, "apiVersion is null");
        requireNonNull(username, "username is null");
        requireNonNull(password, "password is null");
        requireNonNull(caFile, "caFile is null");
        requireNonNull(connectTimeout, "connectTimeout is null");
        requireNonNull(requestTimeout, "requestTimeout is null");
        requireNonNull(backoffMin, "backoffMin is null");
        requireNonNull(backoffMax, "backoffMax is null");
        checkArgument(retries >= 0, "%s: must not be negative: %s", RETRIES, retries);
        checkArgument(backoffMin.compareTo(backoffMax) <= 0, "%s: %s exceeds %s %s", BACKOFF_MIN, backoffMin, BACKOFF_MAX, backoffMax);
    }

    /** Defaults for everything but where and who: 5 s to connect, 10 s a request, 3 retries from 1 s to 30 s. */
    public static AirflowSettings of(URI url, AirflowApiVersion apiVersion, String username, String password) {
        return new AirflowSettings(url, apiVersion, username, password, Optional.empty(), Duration.ofSeconds(5),
                Duration.ofSeconds(10), 3, Duration.ofSeconds(1), Duration.ofSeconds(30));
    }

    /** The same settings with another password. */
    public AirflowSettings withPassword(String password) {
        return new AirflowSettings(url, apiVersion, username, password, caFile, connectTimeout, requestTimeout, retries, backoffMin,
                backoffMax);
    }

    /** Reads the settings; only {@value #URL} is required ({@value #API_VERSION} defaults to v2). */
    public static AirflowSettings parse(Map<String, String> settings) {
        String rawUrl = settings.get(URL);
        if (rawUrl == null || rawUrl.isBlank()) {
            throw new IllegalArgumentException(URL + ": missing; the Airflow API server's address, e.g. http://airflow:8080");
        }
        AirflowSettings defaults = of(url(rawUrl), AirflowApiVersion.parse(API_VERSION, settings.getOrDefault(API_VERSION, "v2")),
                settings.getOrDefault(USERNAME, ""), settings.getOrDefault(PASSWORD, ""));
        Optional<Path> caFile = Optional.ofNullable(settings.get(CA_FILE)).map(Path::of);
        caFile.ifPresent(file -> checkArgument(Files.isReadable(file), "%s: cannot read '%s'", CA_FILE, file));
        return new AirflowSettings(defaults.url(), defaults.apiVersion(), defaults.username(), defaults.password(), caFile,
                duration(settings, CONNECT_TIMEOUT, defaults.connectTimeout()),
                duration(settings, REQUEST_TIMEOUT, defaults.requestTimeout()),
                count(settings, RETRIES, defaults.retries()),
                duration(settings, BACKOFF_MIN, defaults.backoffMin()),
                duration(settings, BACKOFF_MAX, defaults.backoffMax()));
    }

    private static URI url(String raw) {
        try {
            URI url = new URI(raw.trim());
            if (!("http".equals(url.getScheme()) || "https".equals(url.getScheme())) || url.getHost() == null) {
                throw new IllegalArgumentException(format("%s: '%s' is not an http:// or https:// address with a host", URL, raw));
            }
            return url;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(format("%s: '%s' is not an address: %s", URL, raw, e.getReason()), e);
        }
    }

    private static Duration duration(Map<String, String> settings, String name, Duration fallback) {
        String raw = settings.get(name);
        return raw == null ? fallback : duration(name, raw);
    }

    /** A positive duration in Go's syntax, as Muster's other settings: {@code 10s}, {@code 0.5s}, {@code 250ms}, {@code 2m}. */
    public static Duration duration(String name, String raw) {
        Duration value;
        try {
            value = GoDuration.parse(raw.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(format("%s: '%s' is not a duration such as 10s, 0.5s, 250ms or 2m", name, raw), e);
        }
        checkArgument(!value.isNegative() && !value.isZero(), "%s: must be positive: '%s'", name, raw);
        return value;
    }

    private static int count(Map<String, String> settings, String name, int fallback) {
        String raw = settings.get(name);
        return raw == null ? fallback : count(name, raw);
    }

    /** A whole number; anything else names the setting and the value. */
    public static int count(String name, String raw) {
        try {
            return Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(format("%s: '%s' is not a whole number", name, raw), e);
        }
    }

    @Override
    public String toString() {
        return format("AirflowSettings[url=%s, apiVersion=%s, username=%s, caFile=%s, requestTimeout=%s, retries=%s]",
                url, apiVersion, username, caFile.map(Path::toString).orElse("(system trust)"), requestTimeout, retries);
    }
}
