package dev.muster.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The Airflow that {@code muster up --peer airflow} started, seen as its user sees it: the DAG folder,
 * and plain calls of REST API v2 with a token from {@code POST /auth/token}, taken once. The address and
 * password are those muster up wrote into Airflow's home beside the kubeconfig. Not thread-safe.
 */
final class AirflowUpRest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private final Path home;
    private final URI url;
    private final String password;
    private String accessToken;

    private AirflowUpRest(Path home, URI url, String password) {
        this.home = home;
        this.url = url;
        this.password = password;
    }

    /** The Airflow of the muster up that wrote this kubeconfig. */
    static AirflowUpRest of(Path kubeconfig) throws IOException {
        Path home = AirflowUpPeer.home(kubeconfig);
        Map<String, String> environment = Files.readAllLines(home.resolve(AirflowUpPeer.ENVIRONMENT), UTF_8).stream().filter(line -> line.contains("="))
                .collect(Collectors.toMap(line -> line.substring(0, line.indexOf('=')), line -> line.substring(line.indexOf('=') + 1)));
        URI url = URI.create(environment.get("AIRFLOW__CORE__EXECUTION_API_SERVER_URL").replace("/execution/", ""));
        String password = JSON.readTree(home.resolve(AirflowUpPeer.PASSWORDS).toFile()).path(AirflowUpPeer.USER).asText();
        return new AirflowUpRest(home, url, password);
    }

    /** Copies a DAG file of the test resources ({@code /airflow/NAME}) into Airflow's DAG folder. */
    void addDagFile(String name) throws IOException {
        try (InputStream dag = AirflowUpRest.class.getResourceAsStream("/airflow/" + name)) {
            Files.copy(dag, home.resolve("dags").resolve(name));
        }
    }

    /** Whether Airflow has parsed the DAG (its address answers 200). */
    boolean knows(String dag) throws IOException, InterruptedException {
        return call("GET", "/api/v2/dags/" + dag, null).statusCode() == 200;
    }

    /** Triggers a run of the DAG now; its run id. */
    String trigger(String dag) throws IOException, InterruptedException {
        HttpResponse<String> triggered = call("POST", "/api/v2/dags/" + dag + "/dagRuns", "{\"logical_date\": null}");
        assertThat(triggered.statusCode()).as("POST dagRuns of %s: %s", dag, triggered.body()).isEqualTo(200);
        return JSON.readTree(triggered.body()).path("dag_run_id").asText();
    }

    String runState(String dag, String runId) throws IOException, InterruptedException {
        return JSON.readTree(call("GET", "/api/v2/dags/" + dag + "/dagRuns/" + encoded(runId), null).body()).path("state").asText();
    }

    /** The {@code priority_weight} Airflow computed for each task's instances of the run. */
    Map<String, String> priorityWeights(String dag, String runId) throws IOException, InterruptedException {
        HttpResponse<String> instances = call("GET", "/api/v2/dags/" + dag + "/dagRuns/" + encoded(runId) + "/taskInstances?limit=100", null);
        assertThat(instances.statusCode()).as(instances.body()).isEqualTo(200);
        Map<String, String> weights = new TreeMap<>();
        for (JsonNode instance : JSON.readTree(instances.body()).path("task_instances")) {
            weights.put(instance.path("task_id").asText(), instance.path("priority_weight").asText());
        }
        return weights;
    }

    private static String encoded(String runId) {
        return URLEncoder.encode(runId, UTF_8).replace("+", "%20");
    }

    /** One call as Airflow's user. */
    HttpResponse<String> call(String method, String path, String body) throws IOException, InterruptedException {
        if (accessToken == null) {
            accessToken = token();
        }
        return http.send(HttpRequest.newBuilder(url.resolve(path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + accessToken).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String token() throws IOException, InterruptedException {
        HttpResponse<String> token = http.send(HttpRequest.newBuilder(url.resolve("/auth/token")).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("username", AirflowUpPeer.USER, "password", password))))
                .build(), HttpResponse.BodyHandlers.ofString());
        JsonNode accessToken = JSON.readTree(token.body()).path("access_token");
        if (token.statusCode() != 201 || accessToken.isMissingNode()) {
            throw new IOException("POST /auth/token: HTTP " + token.statusCode() + ": " + token.body());
        }
        return accessToken.asText();
    }
}
