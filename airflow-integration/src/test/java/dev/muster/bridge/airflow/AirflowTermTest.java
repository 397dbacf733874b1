package dev.muster.bridge.airflow;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.moreThanOrExactly;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.muster.bridge.airflow.api.AirflowApiVersion;
import dev.muster.bridge.airflow.api.AirflowSettings;
import dev.muster.bridge.airflow.api.TestingReporter;
import dev.muster.bridge.airflow.hints.HintSettings;
import dev.muster.bridge.airflow.pods.AirflowGroupName;
import dev.muster.bridge.airflow.pods.AirflowPodGroups;
import dev.muster.bridge.airflow.pods.AirflowPodIdentity;
import dev.muster.bridge.airflow.pods.SafeLabelValue;
import dev.muster.engine.model.JobOrigin;
import dev.muster.engine.plugins.dag.DagAnnotations;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bridge's term on a test API server and Airflow 3.3.2's recorded answers for the {@code diamond}
 * DAG (a, then b and c, then d, then the mapped fan over three map indexes), served by WireMock.
 */
class AirflowTermTest {
    private static final String RUN_ID = "manual__2026-12-01T22:56:58.266131+00:00";

    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();
    private final int port = freePort();
    // a fixed port, so that the term can call it before it is up and after
    private final WireMockServer airflow = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").port(port));
    private final TestingReporter reporter = new TestingReporter();
    private AirflowTerm term;

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterEach
    void stop() {
        if (term != null) {
            term.stop();
        }
        airflow.stop();
        server.close();
    }

    private static String fixture(String name) {
        try (InputStream in = AirflowTermTest.class.getClassLoader().getResourceAsStream("airflow-v2/" + name)) {
            return new String(in.readAllBytes(), UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void airflowAnswers() {
        airflow.stubFor(get(urlPathEqualTo("/api/v2/version")).willReturn(okJson(fixture("version.json"))));
        tokenAnswers();
        airflow.stubFor(get(urlPathEqualTo("/api/v2/dags/diamond/tasks")).willReturn(okJson(fixture("diamond-tasks.json"))));
        airflow.stubFor(get(urlPathEqualTo("/api/v2/dags/diamond/dagRuns")).willReturn(okJson(fixture("diamond-dagRuns.json"))));
        airflow.stubFor(get(urlPathMatching("/api/v2/dags/diamond/dagRuns/[^/]+/taskInstances"))
                .willReturn(okJson(fixture("diamond-taskInstances.json"))));
    }

    private void tokenAnswers() {
        airflow.stubFor(post(urlPathEqualTo("/auth/token")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody(fixture("token.json"))));
    }

    private void startTerm() throws InterruptedException {
        // the start check tries again after 20 ms, 40 ms, ... at most 160 ms
        AirflowSettings api = new AirflowSettings(URI.create("http://127.0.0.1:" + port), AirflowApiVersion.V2, "muster", "secret", Optional.empty(),
                Duration.ofSeconds(5), Duration.ofSeconds(10), 0, Duration.ofMillis(20), Duration.ofMillis(160));
        term = new AirflowTerm(client, new SharedInformers(client), Clock.systemUTC(),
                new AirflowBridgeSettings(api, HintSettings.DEFAULTS, Duration.ofMillis(200)), reporter);
        term.start();
    }

    /** A pod as KubernetesPodOperator labels it and the pod_mutation_hook annotates it. */
    private String createPod(String name, String task, int mapIndex, boolean gang) {
        return createPod("diamond", name, task, mapIndex, gang);
    }

    private String createPod(String dag, String name, String task, int mapIndex, boolean gang) {
        Map<String, String> labels = new HashMap<>(Map.of("dag_id", dag, "task_id", task, "run_id", SafeLabelValue.of(RUN_ID),
                "try_number", "1", "kubernetes_pod_operator", "True"));
        if (mapIndex >= 0) {
            labels.put("map_index", String.valueOf(mapIndex));
        }
        String group = AirflowGroupName.of(AirflowPodIdentity.fromLabels(name, labels).orElseThrow(), gang);
        Map<String, String> annotations = new HashMap<>(Map.of(AirflowTerm.GROUP_ANNOTATION, group));
        if (gang) {
            annotations.put(AirflowPodGroups.GANG, "true");
        }
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(name).withNamespace("default")
                .withLabels(labels).withAnnotations(annotations).endMetadata()
                .withNewSpec().withSchedulerName("muster").addNewContainer().withName("base").withImage("busybox:1.36").endContainer()
                .endSpec().build()).create();
        return group;
    }

    private GenericKubernetesResource awaitPodGroup(String name) {
        return Awaitility.await("PodGroup " + name).atMost(Duration.ofSeconds(30))
                .until(() -> client.genericKubernetesResources(AirflowPodGroupWriter.POD_GROUPS).inNamespace("default").withName(name).get(),
                        podGroup -> podGroup != null);
    }

    @Test
    void mappedGangIsOnePodGroupWithTheDagAnnotationsReadThroughTheApi() throws InterruptedException {
        airflow.start();
        airflowAnswers();
        String group = List.of(0, 1, 2).stream().map(index -> createPod("fan-" + index, "fan", index, true)).distinct()
                .reduce((first, second) -> first + "," + second).orElseThrow();
        String single = createPod("d", "d", -1, false);

        startTerm();
        GenericKubernetesResource fan = awaitPodGroup(group);
        GenericKubernetesResource d = awaitPodGroup(single);

        assertThat(group).doesNotContain(",");
        // Airflow answered from the start: nothing to report, not even a start-up failure then a recovery
        assertThat(reporter.reports()).isEmpty();
        assertThat(((Map<?, ?>) fan.getAdditionalProperties().get("spec")).get("minMember")).isEqualTo(3);
        assertThat(fan.getMetadata().getAnnotations())
                .containsEntry(DagAnnotations.DAG, "default/diamond/" + SafeLabelValue.of(RUN_ID))
                .containsEntry(DagAnnotations.NODE, "fan")
                .containsEntry(AirflowPodGroups.AIRFLOW_RUN, RUN_ID)
                .containsEntry(DagAnnotations.PRIORITY_WEIGHT, "1")
                .containsKey(DagAnnotations.REMAINING_PATH);
        assertThat(fan.getMetadata().getOwnerReferences()).extracting(owner -> owner.getName()).containsExactly("fan-0", "fan-1", "fan-2");
        assertThat(((Map<?, ?>) d.getAdditionalProperties().get("spec")).get("minMember")).isEqualTo(1);
        // d: its own 1 and fan's 1, as Airflow's recorded task instance says
        assertThat(d.getMetadata().getAnnotations()).containsEntry(DagAnnotations.NODE, "d").containsEntry(DagAnnotations.PRIORITY_WEIGHT, "2");
        // kubectl describe podgroup says what the pods are in Airflow's terms
        String remaining = fan.getMetadata().getAnnotations().get(DagAnnotations.REMAINING_PATH);
        Awaitility.await("the PodGroup's event").atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(client.v1().events()
                .inNamespace("default").list().getItems())
                .filteredOn(event -> group.equals(event.getInvolvedObject().getName()))
                .singleElement().satisfies(event -> {
                    assertThat(event.getReason()).isEqualTo(AirflowPodGroupWriter.AIRFLOW_TASK);
                    assertThat(event.getInvolvedObject().getKind()).isEqualTo("PodGroup");
                    assertThat(event.getInvolvedObject().getUid()).isEqualTo(fan.getMetadata().getUid());
                    assertThat(event.getMessage()).isEqualTo("Airflow DAG diamond, run " + RUN_ID + ", task fan (one gang of its 3 map indexes):"
                            + " remaining critical path " + remaining + " s, priority weight 1 (weight_rule downstream, own 1)");
                }));
    }

    @Test
    void withAirflowDownEachPodGetsAPlainGroupThenTheHintsWhenItAnswers() throws InterruptedException {
        String group = createPod("fan-0", "fan", 0, true);
        createPod("fan-1", "fan", 1, true);

        startTerm();
        GenericKubernetesResource plain = awaitPodGroup(group);

        assertThat(((Map<?, ?>) plain.getAdditionalProperties().get("spec")).get("minMember")).isEqualTo(1);
        assertThat(plain.getMetadata().getAnnotations()).doesNotContainKey(DagAnnotations.DAG);
        assertThat(JobOrigin.of(plain.getMetadata().getAnnotations()).map(JobOrigin::describe)).contains("Airflow DAG diamond, task fan");
        airflow.start();
        airflowAnswers();
        Awaitility.await("hints after recovery").atMost(Duration.ofSeconds(30)).until(() -> client
                .genericKubernetesResources(AirflowPodGroupWriter.POD_GROUPS).inNamespace("default").withName(group).get()
                .getMetadata().getAnnotations().containsKey(DagAnnotations.DAG));
        assertThat(reporter.reports()).hasSize(2).satisfies(reports -> {
            assertThat(reports.get(0)).startsWith("unavailable: ").contains("GET /api/v2/version: unreachable (check airflow.url)");
            assertThat(reports.get(1)).startsWith("recovered after ");
        });
        // no event for the plain group, one once the hints came
        Awaitility.await("the PodGroup's event").atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(client.v1().events()
                .inNamespace("default").list().getItems()).filteredOn(event -> group.equals(event.getInvolvedObject().getName()))
                .singleElement().satisfies(event -> assertThat(event.getMessage()).startsWith("Airflow DAG diamond, run " + RUN_ID + ", task fan")));
    }

    @Test
    void refusedCredentialsAreSaidOnceAtStartThenPodsArePlainUntilTheyAreTaken() throws InterruptedException {
        // given: Airflow answers its version (which needs no login) but refuses the password
        airflow.start();
        airflowAnswers();
        airflow.stubFor(post(urlPathEqualTo("/auth/token")).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"detail\":\"Invalid credentials\"}")));

        // when: the term starts with no pod to read hints for
        startTerm();

        // then: said at start, naming the settings, and tried again with backoff
        Awaitility.await("the start check's report").atMost(Duration.ofSeconds(30)).until(() -> !reporter.reports().isEmpty());
        assertThat(reporter.reports().get(0)).startsWith("unavailable: ")
                .contains("POST /auth/token: HTTP 401, the credentials of muster are refused (check airflow.username and airflow.password)");
        Awaitility.await("the check tried again").atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> airflow.verify(moreThanOrExactly(3), postRequestedFor(urlPathEqualTo("/auth/token"))));
        // a pod meanwhile gets a plain group at once, without a read of its DAG that would fail the same way
        String group = createPod("d", "d", -1, false);
        GenericKubernetesResource plain = awaitPodGroup(group);
        assertThat(plain.getMetadata().getAnnotations()).doesNotContainKey(DagAnnotations.DAG);
        assertThat(reporter.reports()).hasSize(1);

        // and once Airflow takes the credentials, the hints follow and the recovery is said once
        tokenAnswers();
        Awaitility.await("hints once the credentials are taken").atMost(Duration.ofSeconds(30)).until(() -> client
                .genericKubernetesResources(AirflowPodGroupWriter.POD_GROUPS).inNamespace("default").withName(group).get()
                .getMetadata().getAnnotations().containsKey(DagAnnotations.DAG));
        assertThat(reporter.reports()).hasSize(2).last().asString().startsWith("recovered after ");
    }

    @Test
    void podOfADagTheApiDoesNotKnowIsPlainWithoutAReport() throws InterruptedException {
        // given: Airflow 3.3.2's own 404 for a DAG it does not know, beside the diamond it knows
        airflow.start();
        airflowAnswers();
        airflow.stubFor(get(urlPathEqualTo("/api/v2/dags/nobody/tasks")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody(fixture("nobody-tasks-404.json"))));
        String unknown = createPod("nobody", "n", "n", -1, false);
        String known = createPod("d", "d", -1, false);

        // when
        startTerm();

        // then: the unknown DAG's pod is a plain pod, the known one has its hints, and the API counts as up
        GenericKubernetesResource plain = awaitPodGroup(unknown);
        Awaitility.await("the known DAG's hints").atMost(Duration.ofSeconds(30))
                .until(() -> awaitPodGroup(known).getMetadata().getAnnotations().containsKey(DagAnnotations.DAG));
        airflow.verify(moreThanOrExactly(1), getRequestedFor(urlPathEqualTo("/api/v2/dags/nobody/tasks")));
        assertThat(((Map<?, ?>) plain.getAdditionalProperties().get("spec")).get("minMember")).isEqualTo(1);
        assertThat(plain.getMetadata().getAnnotations()).doesNotContainKey(DagAnnotations.DAG);
        assertThat(JobOrigin.of(plain.getMetadata().getAnnotations()).map(JobOrigin::describe)).contains("Airflow DAG nobody, task n");
        assertThat(reporter.reports()).isEmpty();
    }

    @Test
    void anAddressWithoutTheApiVersionKeepsPodsPlainEvenWhereDagReadsWouldAnswer() throws InterruptedException {
        // given: no /api/v2/version (an Airflow 2, or a proxy), though the DAG's addresses answer
        airflow.start();
        airflowAnswers();
        airflow.stubFor(get(urlPathEqualTo("/api/v2/version")).willReturn(aResponse().withStatus(404).withBody("<h1>Not Found</h1>")));
        String group = createPod("d", "d", -1, false);

        // when
        startTerm();

        // then: said once, naming the setting; the check is tried again (20+40+80+160+160 ms, past two polls),
        // and no read of a DAG happens, whose answer would hide the wrong setting as a recovery
        GenericKubernetesResource plain = awaitPodGroup(group);
        Awaitility.await("the check tried again").atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> airflow.verify(moreThanOrExactly(6), getRequestedFor(urlPathEqualTo("/api/v2/version"))));
        assertThat(reporter.reports()).singleElement().asString()
                .contains("GET /api/v2/version: HTTP 404, no REST API v2 here (check airflow.api-version: v2 for Airflow 3, v1 for Airflow 2;");
        airflow.verify(0, getRequestedFor(urlPathMatching("/api/v2/dags/.*")));
        assertThat(plain.getMetadata().getAnnotations()).doesNotContainKey(DagAnnotations.DAG);
    }
}
