package dev.muster.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.airflow.AirflowBridgeSettings;
import dev.muster.bridge.airflow.api.AirflowApiVersion;
import dev.muster.bridge.airflow.api.AirflowSettings;
import dev.muster.bridge.airflow.hints.HintSettings;
import dev.muster.bridge.airflow.pods.LocalSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Airflow of {@code muster up --peer airflow}: Airflow 3 standalone (API server, scheduler, DAG
 * processor, triggerer; SQLite, the LocalExecutor) in a home beside the kubeconfig
 * ({@code muster-up.yaml.airflow/}, kept from one run to the next, so earlier runs' durations are there
 * to learn from), with the repository's pod_mutation_hook in its {@code config/}, its
 * KubernetesPodOperator pointed at the embedded server by {@code KUBECONFIG}, and one user,
 * {@value #USER}, whose password is written before Airflow starts, so that the bridge can be given it
 * at once. Everything listens on loopback, on ports free when {@code muster up} starts.
 */
final class AirflowUpPeer {
    static final String USER = "muster";
    static final String PASSWORDS = "simple_auth_manager_passwords.json.generated";
    static final String ENVIRONMENT = "muster-up.env";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PASSWORD_BYTES = 18;

    private AirflowUpPeer() {}

    /** Where the Airflow of a {@code muster up} writing this kubeconfig lives. */
    static Path home(Path kubeconfig) {
        Path absolute = kubeconfig.toAbsolutePath();
        return absolute.resolveSibling(absolute.getFileName() + ".airflow");
    }

    /**
     * Makes the home (DAG folder, local settings, the user's password, the environment the command
     * gives Airflow) and returns the bridge's settings for this Airflow.
     */
    static AirflowBridgeSettings prepare(Path kubeconfig) throws IOException {
        Path home = home(kubeconfig);
        Files.createDirectories(home.resolve("dags"));
        Files.createDirectories(home.resolve("config"));
        Files.writeString(home.resolve("config").resolve(LocalSettings.FILE_NAME), LocalSettings.text(), UTF_8);
        String password = password(home.resolve(PASSWORDS));
        List<Integer> ports = freePorts(3);
        Map<String, String> environment = ImmutableMap.<String, String>builder()
                .put("AIRFLOW_HOME", home.toString())
                .put("KUBECONFIG", kubeconfig.toAbsolutePath().toString())
                .put("AIRFLOW__CORE__DAGS_FOLDER", home.resolve("dags").toString())
                .put("AIRFLOW__CORE__LOAD_EXAMPLES", "False")
                .put("AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION", "False")
                .put("AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS", USER + ":admin")
                .put("AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE", home.resolve(PASSWORDS).toString())
                .put("AIRFLOW__API__HOST", "127.0.0.1")
                .put("AIRFLOW__API__PORT", String.valueOf(ports.get(0)))
                .put("AIRFLOW__CORE__EXECUTION_API_SERVER_URL", "http://127.0.0.1:" + ports.get(0) + "/execution/")
                .put("AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT", String.valueOf(ports.get(1)))
                .put("AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT", String.valueOf(ports.get(2)))
                // a task worker waits 5 s for the API server by default and fails the task after 5 tries: on a loaded
                // laptop (or a test machine at a load of 30) the one API server worker answers slower than that
                .put("AIRFLOW__WORKERS__EXECUTION_API_TIMEOUT", "60")
                .put("AIRFLOW__WORKERS__EXECUTION_API_RETRIES", "10")
                // a DAG file dropped into dags/ is seen within seconds, not Airflow's default five minutes
                .put("AIRFLOW__DAG_PROCESSOR__REFRESH_INTERVAL", "5")
                .buildOrThrow();
        List<String> lines = new ArrayList<>();
        environment.forEach((name, value) -> lines.add(name + "=" + value));
        Files.write(home.resolve(ENVIRONMENT), lines, UTF_8);
        AirflowSettings api = new AirflowSettings(URI.create("http://127.0.0.1:" + ports.get(0)), AirflowApiVersion.V2, USER, password,
                Optional.empty(), Duration.ofSeconds(5), Duration.ofSeconds(30), 3, Duration.ofSeconds(1), Duration.ofSeconds(10));
        // 2 s: each poll with pending pods reads the DAG's tasks and runs, from the same API server worker as the tasks use
        return new AirflowBridgeSettings(api, HintSettings.DEFAULTS, Duration.ofSeconds(2));
    }

    /** {@code env NAME=VALUE... airflow standalone}, with the environment {@link #prepare} wrote. */
    static List<String> command(Path executable, Path kubeconfig) {
        Path file = home(kubeconfig).resolve(ENVIRONMENT);
        ImmutableList.Builder<String> command = ImmutableList.<String>builder().add("env");
        try {
            command.addAll(Files.readAllLines(file, UTF_8).stream().filter(line -> line.contains("=")).toList());
        } catch (IOException e) {
            throw new IllegalStateException("BUG: --peer airflow started before its home was prepared: cannot read " + file, e);
        }
        return command.add(executable.toString(), "standalone").build();
    }

    /** The user's password: the one an earlier run wrote, else a new one, written as the simple auth manager reads it. */
    private static String password(Path file) throws IOException {
        if (Files.isRegularFile(file)) {
            Object earlier = JSON.readValue(Files.readString(file, UTF_8), Map.class).get(USER);
            if (earlier instanceof String password && !password.isEmpty()) {
                return password;
            }
        }
        byte[] bytes = new byte[PASSWORD_BYTES];
        new SecureRandom().nextBytes(bytes);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Files.writeString(file, JSON.writeValueAsString(Map.of(USER, password)), UTF_8);
        return password;
    }

    private static List<Integer> freePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int index = 0; index < count; index++) {
                sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return sockets.stream().map(ServerSocket::getLocalPort).toList();
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }
}
