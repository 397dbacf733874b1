package dev.muster.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.inject.Module;
import dev.muster.bridge.airflow.AirflowBridgeModule;
import dev.muster.bridge.airflow.AirflowBridgeSettings;
import dev.muster.bridge.airflow.api.AirflowSettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import picocli.CommandLine.Option;

/**
 * The Airflow bridge's settings on the command line of {@code muster run} and {@code muster up}: a
 * file of {@code airflow.*} settings (the airflow-integration README's names), options that override
 * it, and the credentials from a file or the environment, never from the command line (which
 * {@code ps} shows). No setting at all means no Airflow: the bridge is off.
 */
final class AirflowOptions {
    static final String USERNAME_VARIABLE = "MUSTER_AIRFLOW_USERNAME";
    static final String PASSWORD_VARIABLE = "MUSTER_AIRFLOW_PASSWORD";

    @Option(names = "--airflow-url", paramLabel = "URL", description = {
        "The Airflow bridge: Airflow's API server (Airflow 3) or webserver (Airflow 2), e.g. http://airflow:8080.",
        "Without it (or --airflow-config, or muster up --peer airflow) the Airflow bridge is off."})
    private String url;

    @Option(names = "--airflow-api-version", paramLabel = "v2|v1", description = "Airflow's REST API: v2 for Airflow 3 (the default), v1 for Airflow 2.")
    private String apiVersion;

    @Option(names = "--airflow-username", paramLabel = "NAME", description = "Airflow's user (default: $" + USERNAME_VARIABLE + ").")
    private String username;

    @Option(names = "--airflow-password-file", paramLabel = "FILE",
            description = "A file holding the Airflow user's password, e.g. a mounted Secret (default: $" + PASSWORD_VARIABLE + ").")
    private Path passwordFile;

    @Option(names = "--airflow-queue", paramLabel = "pool:NAME=QUEUE", description = {
        "Gives the pods of an Airflow pool (pool:NAME) or Airflow queue (queue:NAME) this Muster queue (repeatable; the pool",
        "is looked up first; unmapped ones get Muster's default queue)."})
    private List<String> queues = new ArrayList<>();

    @Option(names = "--airflow-poll-period", paramLabel = "DURATION", description = "How often the bridge reads Airflow's API (default: 5s).")
    private String pollPeriod;

    @Option(names = "--airflow-config", paramLabel = "FILE", description = {
        "A properties file of airflow.* settings (airflow.url, airflow.api-version, airflow.username, airflow.password,",
        "airflow.ca-file, airflow.request-timeout, airflow.retries, airflow.queue.pool:NAME, ...); the options above override it."})
    private Path configFile;

    /**
     * What {@code muster run} adds to the runtime for the Airflow bridge: its settings when
     * {@code --bridge airflow} is given, which then needs them; nothing otherwise.
     *
     * @throws IllegalArgumentException naming the option or setting that cannot be used, and its value
     */
    Optional<Module> runModule(boolean bridgeNamed, Map<String, String> environment) {
        Optional<AirflowBridgeSettings> given = settings(environment);
        if (bridgeNamed && given.isEmpty()) {
            throw new IllegalArgumentException("--bridge airflow needs --airflow-url (or airflow.url in --airflow-config): where Airflow is");
        }
        if (!bridgeNamed && given.isPresent()) {
            throw new IllegalArgumentException("--airflow-* settings were given without --bridge airflow, which they are for");
        }
        return given.map(AirflowBridgeModule::settings);
    }

    /** What {@code muster up} adds for the Airflow bridge, and one line for its usage text. */
    record Up(Optional<Module> module, String description) {}

    /**
     * What {@code muster up} adds to the runtime for the Airflow bridge: the settings given, or with
     * {@code --peer airflow} those of the Airflow it starts (its home prepared here); nothing, and the
     * bridge off, otherwise.
     *
     * @throws IllegalArgumentException naming the option or setting that cannot be used, and its value
     * @throws IOException when the peer's home cannot be written
     */
    Up upModule(boolean peer, Path kubeconfig, Map<String, String> environment) throws IOException {
        Optional<AirflowBridgeSettings> given = settings(environment);
        if (peer && given.isPresent()) {
            throw new IllegalArgumentException("--peer airflow runs an Airflow of its own; --airflow-* settings name another one: give one or the other");
        }
        if (peer) {
            AirflowBridgeSettings settings = AirflowUpPeer.prepare(kubeconfig);
            Path home = AirflowUpPeer.home(kubeconfig);
            return new Up(Optional.of(AirflowBridgeModule.settings(settings)), "Airflow: " + settings.api().url() + " (user "
                    + AirflowUpPeer.USER + ", password in " + home.resolve(AirflowUpPeer.PASSWORDS) + "), DAG files in "
                    + home.resolve("dags") + "; the Airflow bridge reads it");
        }
        return given.map(settings -> new Up(Optional.of(AirflowBridgeModule.settings(settings)), "Airflow bridge: reading "
                + settings.api().url())).orElseGet(() -> new Up(Optional.empty(), "Airflow bridge: off (no --airflow-url, no --peer airflow)"));
    }

    /**
     * The bridge's settings, if any were given.
     *
     * @throws IllegalArgumentException naming the option or setting that cannot be used, and its value
     */
    Optional<AirflowBridgeSettings> settings(Map<String, String> environment) {
        Map<String, String> settings = new TreeMap<>();
        // each setting as the user gave it, so that a bad one names the option typed, or the file and the setting
        Map<String, String> givenIn = new HashMap<>();
        if (configFile != null) {
            readProperties(configFile).forEach((name, value) -> put(settings, givenIn, name, value, "--airflow-config " + configFile + ": " + name));
        }
        put(settings, givenIn, AirflowSettings.URL, url, "--airflow-url");
        put(settings, givenIn, AirflowSettings.API_VERSION, apiVersion, "--airflow-api-version");
        put(settings, givenIn, AirflowBridgeSettings.POLL_PERIOD, pollPeriod, "--airflow-poll-period");
        for (String queue : queues) {
            int equals = queue.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException("--airflow-queue: '" + queue + "' is not pool:NAME=QUEUE or queue:NAME=QUEUE");
            }
            put(settings, givenIn, AirflowBridgeSettings.QUEUE_PREFIX + queue.substring(0, equals).trim(), queue.substring(equals + 1),
                    "--airflow-queue");
        }
        if (settings.isEmpty() && username == null && passwordFile == null) {
            return Optional.empty();
        }
        put(settings, givenIn, AirflowSettings.USERNAME, username, "--airflow-username");
        if (passwordFile != null) {
            settings.put(AirflowSettings.PASSWORD, readPassword(passwordFile));
        }
        settings.putIfAbsent(AirflowSettings.USERNAME, environment.getOrDefault(USERNAME_VARIABLE, ""));
        settings.putIfAbsent(AirflowSettings.PASSWORD, environment.getOrDefault(PASSWORD_VARIABLE, ""));
        if (!settings.containsKey(AirflowSettings.URL)) {
            throw new IllegalArgumentException("--airflow-url (or airflow.url in --airflow-config): missing; Airflow settings were given"
                    + " but not where Airflow is");
        }
        try {
            return Optional.of(AirflowBridgeSettings.parse(settings));
        } catch (IllegalArgumentException e) {
            // the bridge's messages begin with the setting's name: name it as the user gave it
            int colon = e.getMessage() == null ? -1 : e.getMessage().indexOf(':');
            String where = colon < 0 ? null : givenIn.get(e.getMessage().substring(0, colon));
            throw where == null ? e : new IllegalArgumentException(where + e.getMessage().substring(colon), e);
        }
    }

    private static void put(Map<String, String> settings, Map<String, String> givenIn, String name, String value, String where) {
        if (value != null) {
            settings.put(name, value);
            givenIn.put(name, where);
        }
    }

    private static Map<String, String> readProperties(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("--airflow-config: cannot read " + file + " (" + e.getMessage() + ")", e);
        }
        Map<String, String> settings = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> settings.put(name, properties.getProperty(name).trim()));
        return settings;
    }

    private static String readPassword(Path file) {
        try {
            String password = Files.readString(file, UTF_8).strip();
            if (password.isEmpty()) {
                throw new IllegalArgumentException("--airflow-password-file: " + file + " is empty");
            }
            return password;
        } catch (IOException e) {
            throw new IllegalArgumentException("--airflow-password-file: cannot read " + file + " (" + e.getMessage() + ")", e);
        }
    }
}
