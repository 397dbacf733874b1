package dev.muster.bridge.airflow.peer;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a test does to a real Airflow that Muster never does (trigger a run), through the REST API as
 * any user would, with plain HTTP so that it does not depend on the client under test.
 */
public final class AirflowRestCalls {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RealAirflow airflow;
    // HTTP/1.1: Airflow 3's uvicorn refuses the JDK client's h2c upgrade and garbles a POST body (see HttpClients)
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    public AirflowRestCalls(RealAirflow airflow) {
        this.airflow = airflow;
    }

    /** Triggers a run now; returns its dag_run_id. */
    public String trigger(String dagId) throws IOException, InterruptedException {
        JsonNode run = send("POST", "/api/v2/dags/" + dagId + "/dagRuns", "{\"logical_date\": null}");
        return run.get("dag_run_id").asText();
    }

    /** The run's state ({@code queued}, {@code running}, {@code success}, {@code failed}). */
    public String runState(String dagId, String runId) throws IOException, InterruptedException {
        return send("GET", "/api/v2/dags/" + dagId + "/dagRuns/" + URLEncoder.encode(runId, UTF_8).replace("+", "%20"), null)
                .get("state").asText();
    }

    /**
     * The {@code priority_weight} Airflow computed for each task instance of a run, by task id and map
     * index ({@code train[0]}; {@code train} when not mapped or not yet expanded).
     */
    public Map<String, Integer> priorityWeights(String dagId, String runId) throws IOException, InterruptedException {
        JsonNode page = send("GET", "/api/v2/dags/" + dagId + "/dagRuns/" + URLEncoder.encode(runId, UTF_8).replace("+", "%20")
                + "/taskInstances?limit=100", null);
        Map<String, Integer> weights = new TreeMap<>();
        for (JsonNode instance : page.get("task_instances")) {
            int mapIndex = instance.get("map_index").asInt();
            String key = instance.get("task_id").asText() + (mapIndex < 0 ? "" : "[" + mapIndex + "]");
            JsonNode weight = instance.path("priority_weight");
            if (!weight.isIntegralNumber()) {
                throw new IOException("task instance " + key + " of " + dagId + "/" + runId + ": priority_weight " + weight);
            }
            weights.put(key, weight.asInt());
        }
        return weights;
    }

    private JsonNode send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(airflow.url() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token())
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IOException(method + " " + path + ": HTTP " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    // one token for the test: a POST /auth/token per poll costs a loaded machine's API server dearly
    private String token;

    private synchronized String token() throws IOException, InterruptedException {
        if (token == null) {
            token = login();
        }
        return token;
    }

    private String login() throws IOException, InterruptedException {
        String login = JSON.writeValueAsString(Map.of("username", RealAirflow.USER, "password", airflow.password()));
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(airflow.url() + "/auth/token"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(login)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 201) {
            throw new IOException("POST /auth/token: HTTP " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body()).get("access_token").asText();
    }
}
