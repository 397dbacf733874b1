package dev.muster.bridge.airflow.peer;

import static java.lang.String.format;
import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.bridge.airflow.api.AirflowApiVersion;
import dev.muster.bridge.airflow.api.AirflowSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real Airflow ({@code airflow standalone}: API server or webserver, scheduler, DAG processor,
 * triggerer) on SQLite in a directory of its own, its DAG folder the test's. Airflow 3 serves REST API v2
 * and has the simple auth manager's user {@value #USER}; Airflow 2 serves v1 with basic auth for the
 * {@code admin} that standalone makes. Made by {@link RealAirflowExtension}.
 */
public final class RealAirflow {
    public static final String USER = "muster";
    static final String AIRFLOW_2_USER = "admin";
    static final String PASSWORDS_V2 = "simple_auth_manager_passwords.json.generated";
    static final String PASSWORD_V1 = "standalone_admin_password.txt";

    private final Path home;
    private final int port;
    private final String version;
    private final AirflowApiVersion apiVersion;
    private final Process process;

    RealAirflow(Path home, int port, String version, AirflowApiVersion apiVersion, Process process) {
        this.home = home;
        this.port = port;
        this.version = version;
        this.apiVersion = apiVersion;
        this.process = process;
    }

    public AirflowApiVersion apiVersion() {
        return apiVersion;
    }

    public String user() {
        return apiVersion == AirflowApiVersion.V2 ? USER : AIRFLOW_2_USER;
    }

    /** The file standalone writes the password to; the extension waits for it. */
    Path passwordFile() {
        return home.resolve(apiVersion == AirflowApiVersion.V2 ? PASSWORDS_V2 : PASSWORD_V1);
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** The installed peer's version ({@code 3.3.2}). */
    public String version() {
        return version;
    }

    public Path home() {
        return home;
    }

    /** The password standalone generated for {@link #user()}. */
    public String password() {
        Path file = passwordFile();
        try {
            if (apiVersion == AirflowApiVersion.V1) {
                return Files.readString(file, UTF_8).trim();
            }
            Map<?, ?> passwords = new ObjectMapper().readValue(Files.readString(file, UTF_8), Map.class);
            return String.valueOf(passwords.get(USER));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Airflow's generated passwords " + file, e);
        }
    }

    /** Settings for Muster's client: this server's API version and user, short backoff for a test. */
    public AirflowSettings settings() {
        return new AirflowSettings(url(), apiVersion, user(), password(), Optional.empty(), Duration.ofSeconds(5),
                Duration.ofSeconds(30), 3, Duration.ofMillis(200), Duration.ofSeconds(2));
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The last lines of Airflow's log, for a failure message. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(home.resolve("airflow.log"), UTF_8);
            return String.join("\n", new ArrayList<>(all.subList(Math.max(0, all.size() - lines), all.size())));
        } catch (IOException e) {
            return format("(cannot read %s: %s)", home.resolve("airflow.log"), e.getMessage());
        }
    }
}
