package dev.muster.bridge.airflow.api;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Airflow 3's API down, refusing the credentials, failing with 500 or answering too slowly: the reads
 * give nothing (the pods are scheduled without hints), one message names the setting, and the next read
 * after the API is back gives the hints again. The 200 answers are Airflow 3.3.2's own (see
 * {@code src/test/resources/airflow-v2/README.md}).
 */
class AirflowApiFailureTest {
    private static final String TASKS = "/api/v2/dags/muster_diamond/tasks";

    private WireMockServer airflow;
    private TestingReporter reporter;
    private AirflowAvailability availability;

    @BeforeEach
    void start() {
        airflow = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
        airflow.start();
        reporter = new TestingReporter();
        availability = new AirflowAvailability(Clock.systemUTC(), reporter);
    }

    @AfterEach
    void stop() {
        airflow.stop();
    }

    // generous, for a loaded machine: only the slow test relies on a timeout, with an answer far later
    private static AirflowSettings settings(URI url, Duration requestTimeout) {
        return new AirflowSettings(url, AirflowApiVersion.V2, "muster", "secret", Optional.empty(), Duration.ofSeconds(5),
                requestTimeout, 2, Duration.ofMillis(10), Duration.ofMillis(40));
    }

    private AirflowApi api() {
        return AirflowApis.connect(settings(URI.create(airflow.baseUrl()), Duration.ofSeconds(10)));
    }

    private void tokenAnswers() {
        airflow.stubFor(post(urlPathEqualTo("/auth/token"))
                .withRequestBody(equalToJson("{\"username\": \"muster\", \"password\": \"secret\"}"))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody(Fixtures.read("airflow-v2/token.json"))));
    }

    private void tasksAnswer() {
        airflow.stubFor(get(urlPathEqualTo(TASKS)).withHeader("Authorization", equalTo("Bearer " + Fixtures.TOKEN))
                .willReturn(okJson(Fixtures.read("airflow-v2/muster_diamond-tasks.json"))));
    }

    private Optional<List<AirflowTask>> readTasks(AirflowApi api) {
        return availability.read("dag muster_diamond", () -> api.tasks("muster_diamond"));
    }

    @Test
    void answeringApiGivesTheTaskGraph() {
        tokenAnswers();
        tasksAnswer();

        Optional<List<AirflowTask>> tasks = readTasks(api());

        assertThat(tasks).hasValueSatisfying(found -> assertThat(found).extracting(AirflowTask::taskId).contains("extract", "train"));
        assertThat(reporter.reports()).isEmpty();
    }

    @Test
    void apiDownGivesNothingSaysSoOnceAndRecovers() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        AirflowApi down = AirflowApis.connect(settings(URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(10)));

        assertThat(readTasks(down)).isEmpty();
        assertThat(readTasks(down)).isEmpty();

        assertThat(reporter.reports()).singleElement().asString()
                .contains("unavailable", "http://127.0.0.1:" + port, "airflow.url", "POST /auth/token");
        tokenAnswers();
        tasksAnswer();
        assertThat(readTasks(api())).isPresent();
        assertThat(reporter.reports()).hasSize(2).last().asString().startsWith("recovered after");
    }

    @Test
    void refusedCredentialsAreNotRetriedAndNameTheSetting() {
        airflow.stubFor(post(urlPathEqualTo("/auth/token"))
                .willReturn(aResponse().withStatus(401).withHeader("Content-Type", "application/json")
                        .withBody("{\"detail\":\"Invalid credentials\"}")));

        assertThat(readTasks(api())).isEmpty();

        assertThat(reporter.reports()).singleElement().asString()
                .contains("HTTP 401", "credentials of muster are refused", "airflow.username", "airflow.password", "Invalid credentials");
        airflow.verify(1, postRequestedFor(urlPathEqualTo("/auth/token")));
    }

    @Test
    void anAddressWithoutTheConfiguredApiVersionNamesTheVersionSettingNotAnUnknownDag() {
        // an Airflow 2 webserver has neither /api/v2/version nor /auth/token
        airflow.stubFor(get(urlPathEqualTo("/api/v2/version")).willReturn(aResponse().withStatus(404).withBody("<h1>Not Found</h1>")));
        airflow.stubFor(post(urlPathEqualTo("/auth/token")).willReturn(aResponse().withStatus(404).withBody("<h1>Not Found</h1>")));
        AirflowApi api = api();

        assertThat(availability.read("Airflow's version", api::version)).isEmpty();
        assertThat(readTasks(api)).isEmpty();

        assertThat(reporter.reports()).singleElement().asString()
                .contains("GET /api/v2/version: HTTP 404, no REST API v2 here (check airflow.api-version: v2 for Airflow 3, v1 for Airflow 2;"
                        + " and airflow.url)")
                .doesNotContain("unknown DAG");
        assertThat(availability.problem()).hasValueSatisfying(problem -> {
            assertThat(problem.setting()).isEqualTo("airflow.api-version");
            assertThat(problem.getMessage()).contains("POST /auth/token: HTTP 404, no REST API v2 here").doesNotContain("unknown DAG");
        });
    }

    @Test
    void expiredTokenIsRenewedOnce() {
        tokenAnswers();
        airflow.stubFor(get(urlPathEqualTo(TASKS)).inScenario("expiry").whenScenarioStateIs("Started")
                .willReturn(aResponse().withStatus(401).withBody("{\"detail\":\"Signature has expired\"}"))
                .willSetStateTo("renewed"));
        airflow.stubFor(get(urlPathEqualTo(TASKS)).inScenario("expiry").whenScenarioStateIs("renewed")
                .willReturn(okJson(Fixtures.read("airflow-v2/muster_diamond-tasks.json"))));

        assertThat(readTasks(api())).isPresent();

        airflow.verify(2, postRequestedFor(urlPathEqualTo("/auth/token")));
        assertThat(reporter.reports()).isEmpty();
    }

    @Test
    void serverErrorIsRetriedWithBackoffThenGivesNothing() {
        tokenAnswers();
        airflow.stubFor(get(urlPathEqualTo(TASKS)).willReturn(aResponse().withStatus(500).withBody("Internal Server Error")));
        AirflowApi api = api();

        assertThat(readTasks(api)).isEmpty();
        assertThat(readTasks(api)).isEmpty();

        // each read: the first try and airflow.retries = 2 more
        airflow.verify(6, getRequestedFor(urlPathEqualTo(TASKS)));
        assertThat(reporter.reports()).singleElement().asString().contains("HTTP 500", TASKS);
        tasksAnswer();
        assertThat(readTasks(api)).isPresent();
        assertThat(reporter.reports()).hasSize(2);
    }

    @Test
    void slowAnswerTimesOutAndNamesTheTimeout() {
        tokenAnswers();
        airflow.stubFor(get(urlPathEqualTo(TASKS)).willReturn(okJson(Fixtures.read("airflow-v2/muster_diamond-tasks.json"))
                .withFixedDelay(5_000)));
        AirflowApi slow = AirflowApis.connect(settings(URI.create(airflow.baseUrl()), Duration.ofSeconds(1)));

        assertThat(readTasks(slow)).isEmpty();

        assertThat(reporter.reports()).singleElement().asString()
                .contains("no answer within airflow.request-timeout=PT1S");
        // WireMock writes a request to its journal once it has answered it, 5 s after it came
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> airflow.verify(3, getRequestedFor(urlPathEqualTo(TASKS))));
    }

    @Test
    void unknownDagGivesNothingButTheApiCountsAsUp() {
        tokenAnswers();
        airflow.stubFor(get(urlPathEqualTo("/api/v2/dags/nobody/tasks")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody("{\"detail\":\"Dag with id nobody was not found\"}")));

        assertThat(availability.read("dag nobody", () -> api().tasks("nobody"))).isEmpty();

        assertThat(reporter.reports()).isEmpty();
        assertThat(availability.problem()).isEmpty();
    }

    @Test
    void answerOfAnotherApiVersionNamesTheVersionSetting() {
        tokenAnswers();
        airflow.stubFor(get(urlPathEqualTo(TASKS)).willReturn(okJson("{\"tasks\": {\"not\": \"a list\"}}")));

        assertThat(readTasks(api())).isEmpty();

        assertThat(reporter.reports()).singleElement().asString().contains("airflow.api-version");
    }

    static Stream<Arguments> notFoundAnswers() {
        return Stream.of(
                Arguments.of("Airflow 3's answer for a DAG it does not know", AirflowApiVersion.V2,
                        Fixtures.read("airflow-v2/nobody-tasks-404.json"), AirflowApiException.Failure.NOT_FOUND),
                Arguments.of("Airflow 3's answer for a route it does not serve", AirflowApiVersion.V2,
                        Fixtures.read("airflow-v2/unknown-route-404.json"), AirflowApiException.Failure.BAD_RESPONSE),
                Arguments.of("Airflow 3's answer to REST API v1", AirflowApiVersion.V1,
                        Fixtures.read("airflow-v2/v1-on-airflow3-404.json"), AirflowApiException.Failure.BAD_RESPONSE),
                Arguments.of("a web framework's default", AirflowApiVersion.V2, "{\"detail\":\"Not Found\"}",
                        AirflowApiException.Failure.BAD_RESPONSE),
                Arguments.of("Airflow 2's answer for a DAG it does not know", AirflowApiVersion.V1,
                        Fixtures.read("airflow-v1/nobody-tasks-404.json"), AirflowApiException.Failure.NOT_FOUND),
                Arguments.of("Airflow 2's answer for a route it does not serve", AirflowApiVersion.V1,
                        Fixtures.read("airflow-v1/unknown-route-404.json"), AirflowApiException.Failure.BAD_RESPONSE),
                Arguments.of("Airflow 2's page for REST API v2", AirflowApiVersion.V2,
                        Fixtures.read("airflow-v1/v2-on-airflow2-404.html"), AirflowApiException.Failure.BAD_RESPONSE),
                Arguments.of("an empty body, as a proxy may give", AirflowApiVersion.V2, "", AirflowApiException.Failure.BAD_RESPONSE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notFoundAnswers")
    void a404OnADagsAddressIsAnUnknownDagOnlyWhenAirflowSaysSo(String answer, AirflowApiVersion version, String body,
            AirflowApiException.Failure expected) {
        tokenAnswers();
        String tasks = "/api/" + version.name().toLowerCase(Locale.ROOT) + "/dags/muster_diamond/tasks";
        airflow.stubFor(get(urlPathEqualTo(tasks)).willReturn(aResponse().withStatus(404).withBody(body)));
        AirflowApi api = AirflowApis.connect(new AirflowSettings(URI.create(airflow.baseUrl()), version, "muster", "secret", Optional.empty(),
                Duration.ofSeconds(5), Duration.ofSeconds(10), 2, Duration.ofMillis(10), Duration.ofMillis(40)));

        assertThat(availability.read("dag muster_diamond", () -> api.tasks("muster_diamond"))).isEmpty();

        if (expected == AirflowApiException.Failure.NOT_FOUND) {
            assertThat(reporter.reports()).isEmpty();
            assertThat(availability.problem()).isEmpty();
        } else {
            assertThat(reporter.reports()).singleElement().asString()
                    .contains("GET " + tasks + ": HTTP 404, no REST API " + version.name().toLowerCase(Locale.ROOT) + " here (check airflow.api-version");
            assertThat(availability.problem()).hasValueSatisfying(problem -> {
                assertThat(problem.failure()).isEqualTo(expected);
                assertThat(problem.setting()).isEqualTo(AirflowSettings.API_VERSION);
            });
        }
        // neither kind is retried: a 404 does not pass by itself
        airflow.verify(1, getRequestedFor(urlPathEqualTo(tasks)));
    }

    @Test
    void checkingCredentialsTakesANewTokenAndNamesTheSettingsWhenRefused() {
        airflow.stubFor(get(urlPathEqualTo("/api/v2/version")).willReturn(okJson(Fixtures.read("airflow-v2/version.json"))));
        airflow.stubFor(post(urlPathEqualTo("/auth/token")).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"detail\":\"Invalid credentials\"}")));
        AirflowApi api = api();

        assertThat(api.version()).isEqualTo("3.3.2");
        assertThat(availability.read("credentials", () -> {
            api.checkCredentials();
            return true;
        })).isEmpty();

        assertThat(availability.problem()).hasValueSatisfying(problem -> {
            assertThat(problem.failure()).isEqualTo(AirflowApiException.Failure.UNAUTHORIZED);
            assertThat(problem.setting()).isEqualTo(AirflowSettings.PASSWORD);
        });
        tokenAnswers();
        api.checkCredentials();
        api.checkCredentials();
        // one refused, then a new token for each check rather than the one kept
        airflow.verify(3, postRequestedFor(urlPathEqualTo("/auth/token")));
    }

    @Test
    void checkingCredentialsOnV1ReadsOneRunOfEveryDagWithBasicAuth() {
        // Airflow 2.11.2 answers a wrong password here with 403, as it answers /version without any
        // the generated client sends "~" as %7E, which the real Airflow 2.11.2 reads as "~"
        airflow.stubFor(get(urlPathEqualTo("/api/v1/dags/%7E/dagRuns")).willReturn(aResponse().withStatus(403)
                .withHeader("Content-Type", "application/problem+json").withBody(Fixtures.read("airflow-v1/wrong-password-403.json"))));
        AirflowApi api = AirflowApis.connect(new AirflowSettings(URI.create(airflow.baseUrl()), AirflowApiVersion.V1, "admin", "wrong",
                Optional.empty(), Duration.ofSeconds(5), Duration.ofSeconds(10), 2, Duration.ofMillis(10), Duration.ofMillis(40)));

        assertThat(availability.read("credentials", () -> {
            api.checkCredentials();
            return true;
        })).isEmpty();

        assertThat(reporter.reports()).singleElement().asString()
                .contains("GET /api/v1/dags/~/dagRuns?limit=1: HTTP 403, the credentials of admin are refused (check airflow.username and airflow.password)");
        airflow.verify(1, getRequestedFor(urlPathEqualTo("/api/v1/dags/%7E/dagRuns")).withQueryParam("limit", equalTo("1"))
                .withHeader("Authorization", equalTo("Basic YWRtaW46d3Jvbmc=")));
    }
}
