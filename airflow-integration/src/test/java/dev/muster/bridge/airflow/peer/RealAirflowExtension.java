package dev.muster.bridge.airflow.peer;

import static java.lang.String.format;

import com.google.common.collect.ImmutableMap;
import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import dev.muster.bridge.airflow.api.AirflowApiVersion;
import dev.muster.peers.InstalledPeer;
import dev.muster.peers.PeerInstaller;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs ({@code peers/install airflow}, or {@code airflow2}) and starts {@code airflow standalone} once
 * per test class: SQLite and the LocalExecutor in a temporary {@code AIRFLOW_HOME}, the API server (Airflow
 * 3) or webserver (Airflow 2, basic auth on) on a free loopback port, the log servers of the scheduler and triggerer on free ports too (they default to 8793 and
 * 8794, which two runs at once would share), and on Airflow 3 the simple auth manager with one admin,
 * {@value RealAirflow#USER}, and the execution API at the API server's port.
 * After the class the whole process tree gets SIGTERM, SIGKILL 10 s later, and the directory goes.
 */
public final class RealAirflowExtension implements BeforeAllCallback, ParameterResolver {
    private static final Logger log = LoggerFactory.getLogger(RealAirflowExtension.class);
    // measured on the shared 2 cores at a load average near 20: Airflow 3.3.2 154 s, Airflow 2.11.2 70 s
    private static final Duration START_TIMEOUT = Duration.ofMinutes(6);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RealAirflowExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        WithRealAirflow settings = context.getRequiredTestClass().getAnnotation(WithRealAirflow.class);
        String dags = settings == null ? "airflow/dags" : settings.dags();
        String peerName = settings == null ? "airflow" : settings.peer();
        AirflowApiVersion apiVersion = switch (peerName) {
            case "airflow" -> AirflowApiVersion.V2;
            case "airflow2" -> AirflowApiVersion.V1;
            default -> throw new IllegalArgumentException("@WithRealAirflow(peer = \"" + peerName + "\"): not airflow or airflow2");
        };
        InstalledPeer peer = PeerInstaller.locate().install(List.of(peerName)).get(peerName);
        Path home = Files.createTempDirectory("muster-airflow-");
        copyDags(dags, home.resolve("dags"));
        List<Integer> ports = freePorts(3);
        ImmutableMap.Builder<String, String> environment = ImmutableMap.<String, String>builder()
                .put("AIRFLOW_HOME", home.toString())
                .put("AIRFLOW__CORE__DAGS_FOLDER", home.resolve("dags").toString())
                .put("AIRFLOW__CORE__LOAD_EXAMPLES", "False")
                .put("AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT", String.valueOf(ports.get(1)))
                .put("AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT", String.valueOf(ports.get(2)));
        if (apiVersion == AirflowApiVersion.V2) {
            environment.put("AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS", RealAirflow.USER + ":admin")
                    .put("AIRFLOW__API__HOST", "127.0.0.1")
                    .put("AIRFLOW__API__PORT", String.valueOf(ports.get(0)))
                    .put("AIRFLOW__CORE__EXECUTION_API_SERVER_URL", format("http://127.0.0.1:%s/execution/", ports.get(0)))
                    .put("AIRFLOW__DAG_PROCESSOR__REFRESH_INTERVAL", "5");
        } else {
            // Airflow 2: the Flask webserver serves /api/v1; basic auth is not on by default
            environment.put("AIRFLOW__WEBSERVER__WEB_SERVER_HOST", "127.0.0.1")
                    .put("AIRFLOW__WEBSERVER__WEB_SERVER_PORT", String.valueOf(ports.get(0)))
                    .put("AIRFLOW__WEBSERVER__WORKERS", "1")
                    .put("AIRFLOW__API__AUTH_BACKENDS", "airflow.api.auth.backend.basic_auth");
        }
        ProcessBuilder builder = new ProcessBuilder(peer.executable().toString(), "standalone")
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(home.resolve("airflow.log").toFile());
        builder.environment().putAll(environment.buildOrThrow());
        long started = System.nanoTime();
        Process process = builder.start();
        RealAirflow airflow = new RealAirflow(home, ports.get(0), peer.version(), apiVersion, process);
        Running running = new Running(airflow, process, home);
        context.getStore(NAMESPACE).put(RealAirflow.class, running);
        // a JVM that is told to stop (SIGTERM, Ctrl-C) ends Airflow too; JUnit's close does not run then
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }, "muster-airflow-shutdown"));
        awaitReady(airflow);
        log.info("Airflow {} standalone ready at {} in {} ms, home {}", peer.version(), airflow.url(),
                (System.nanoTime() - started) / 1_000_000, home);
    }

    private static void awaitReady(RealAirflow airflow) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        String path = airflow.apiVersion() == AirflowApiVersion.V2 ? "/api/v2/monitor/health" : "/health";
        HttpRequest health = HttpRequest.newBuilder(airflow.url().resolve(path)).timeout(Duration.ofSeconds(5)).build();
        try {
            Awaitility.await("Airflow standalone answers " + path + " and wrote its password")
                    .atMost(START_TIMEOUT)
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .failFast("airflow standalone exited", () -> !airflow.isAlive())
                    .until(() -> http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200
                            && Files.isRegularFile(airflow.passwordFile()));
        } catch (RuntimeException | Error e) {
            throw new IllegalStateException(format("Airflow did not start: %s%nits last log lines:%n%s", e.getMessage(),
                    airflow.logTail(60)), e);
        }
    }

    private static void copyDags(String resource, Path target) throws IOException, URISyntaxException {
        URL url = RealAirflowExtension.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IllegalArgumentException("@WithRealAirflow(dags = \"" + resource + "\"): no such test resource folder");
        }
        Files.createDirectories(target);
        try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
            for (Path file : files.filter(path -> path.toString().endsWith(".py")).toList()) {
                Files.copy(file, target.resolve(file.getFileName().toString()));
            }
        }
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

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RealAirflow.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NAMESPACE).get(RealAirflow.class, Running.class).airflow();
    }

    /** Stored so that JUnit ends it after the class (and its nested classes). */
    private record Running(RealAirflow airflow, Process process, Path home) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() throws IOException {
            List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
            tree.add(process.toHandle());
            tree.forEach(ProcessHandle::destroy);
            long deadline = System.nanoTime() + STOP_GRACE.toNanos();
            for (ProcessHandle handle : tree) {
                try {
                    handle.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // still running: killed below
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            // the API server's workers can outlive their parent by seconds; nothing may survive the class
            tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            try {
                MoreFiles.deleteRecursively(home, RecursiveDeleteOption.ALLOW_INSECURE);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete Airflow's home " + home, e);
            }
        }
    }
}
