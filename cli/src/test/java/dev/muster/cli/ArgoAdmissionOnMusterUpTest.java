package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workflow admission (issue 14, item 3) with the real Argo workflow controller on {@code muster up --peer
 * argo}, and with the real Argo Server ({@code --peer argo-server}) resuming through it. First: two workflows submitted suspended with {@code muster.dev/admit: "true"} on a queue that can hold
 * only one's widest stage. The first is resumed and runs; the second waits, with an Event saying for
 * what, and is resumed only once the first has ended; both succeed.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ArgoAdmissionOnMusterUpTest {
    private static final Duration WAIT = Duration.ofSeconds(150);
    private static final ResourceDefinitionContext WORKFLOWS = new ResourceDefinitionContext.Builder()
            .withGroup("argoproj.io").withVersion("v1alpha1").withPlural("workflows").withKind("Workflow").withNamespaced(true).build();
    private static final ResourceDefinitionContext QUEUES = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withPlural("queues").withKind("Queue").withNamespaced(false).build();

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(WAIT);

    @Test
    void theSecondWorkflowWaitsForTheQueueUntilTheFirstHasEndedThenBothSucceed() throws Exception {
        // given: muster up with two nodes of 8 CPUs (room for both), Argo's controller, and a queue of 10 CPUs
        KubernetesClient client = up.start(directory, "--nodes", "2:cpu=8,memory=32Gi", "--peer", "argo");

        // when: two workflows whose widest stage needs 9 CPUs each, submitted suspended
        try (InputStream in = ArgoAdmissionOnMusterUpTest.class.getResourceAsStream("/argo/admission.yaml")) {
            for (HasMetadata object : client.load(in).items()) {
                GenericKubernetesResource resource = (GenericKubernetesResource) object;
                if (resource.getKind().equals("Queue")) {
                    client.genericKubernetesResources(QUEUES).resource(resource).create();
                } else {
                    client.genericKubernetesResources(WORKFLOWS).inNamespace("default").resource(resource).create();
                }
            }
        }

        // then: the second says what it waits for while the first runs
        await().atMost(WAIT).untilAsserted(() -> assertThat(events(client, "second", "WaitingForQueue"))
                .as("muster up's stdout names the controller's log").anySatisfy(message -> assertThat(message)
                        .startsWith("waits for queue pipelines: widest stage main[1] needs cpu 9 (3 pods)")
                        .contains("queue pipelines")));
        assertThat(events(client, "first", "Admitted")).containsExactly("admitted to queue pipelines: widest stage main[1] needs cpu 9 (3 pods)");
        // both succeed
        await().atMost(WAIT).untilAsserted(() -> assertThat(List.of(phase(client, "first"), phase(client, "second")))
                .containsExactly("Succeeded", "Succeeded"));
        assertThat(events(client, "second", "Admitted")).hasSize(1);
        // the second started no pod before every pod of the first had ended: it never held a stage it might not finish
        List<Pod> pods = client.pods().inNamespace("default").withLabel("workflows.argoproj.io/workflow").list().getItems();
        assertThat(pods).hasSize(10);
        Instant firstEnded = pods.stream().filter(pod -> workflow(pod).equals("first")).map(ArgoAdmissionOnMusterUpTest::finished)
                .max(Instant::compareTo).orElseThrow();
        Instant secondStarted = pods.stream().filter(pod -> workflow(pod).equals("second"))
                .map(pod -> Instant.parse(pod.getStatus().getStartTime())).min(Instant::compareTo).orElseThrow();
        assertThat(secondStarted).as("the second's first pod started while the first ran").isAfterOrEqualTo(firstEnded);
    }

    @Test
    void withTheArgoServerPeerAnAdmittedWorkflowIsResumedThroughTheServer() throws Exception {
        // given: muster up with Argo's controller and the Argo Server
        KubernetesClient client = up.start(directory, "--peer", "argo", "--peer", "argo-server");
        Pattern peerLog = Pattern.compile("^Peer: argo-server .*, log (.+)\\)$", Pattern.MULTILINE);
        // muster up names the server's log once its peers have started
        await().atMost(WAIT).until(() -> peerLog.matcher(up.output()).find());
        Matcher log = peerLog.matcher(up.output());
        assertThat(log.find()).isTrue();
        // the server answers with its version, without a token, once its gateway is up
        HttpClient http = HttpClient.newHttpClient();
        await().atMost(WAIT).ignoreExceptions().until(() -> http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:2746/api/v1/version"))
                .build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200);

        // when: a workflow asking for admission is submitted suspended
        try (InputStream in = ArgoAdmissionOnMusterUpTest.class.getResourceAsStream("/argo/server-admitted.yaml")) {
            client.genericKubernetesResources(WORKFLOWS).inNamespace("default")
                    .resource((GenericKubernetesResource) client.load(in).items().get(0)).create();
        }

        // then: it is admitted and succeeds, and the Argo Server served its resume
        await().atMost(WAIT).untilAsserted(() -> assertThat(phase(client, "server-admitted")).isEqualTo("Succeeded"));
        assertThat(events(client, "server-admitted", "Admitted")).hasSize(1);
        // the server logs each HTTP request it served, with its path and method (in no fixed order on the line)
        assertThat(Files.readAllLines(Path.of(log.group(1)))).anySatisfy(line -> assertThat(line).contains("msg=\"HTTP request\"")
                .contains(" path=/api/v1/workflows/default/server-admitted/resume").contains(" method=PUT"));
    }

    private static List<String> events(KubernetesClient client, String workflow, String reason) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> workflow.equals(event.getInvolvedObject().getName()) && "Workflow".equals(event.getInvolvedObject().getKind()))
                .filter(event -> reason.equals(event.getReason()))
                .map(Event::getMessage)
                .toList();
    }

    private static String workflow(Pod pod) {
        return pod.getMetadata().getLabels().get("workflows.argoproj.io/workflow");
    }

    private static Instant finished(Pod pod) {
        return pod.getStatus().getContainerStatuses().stream()
                .filter(status -> status.getState().getTerminated() != null)
                .map(status -> Instant.parse(status.getState().getTerminated().getFinishedAt()))
                .max(Instant::compareTo).orElseThrow();
    }

    private static String phase(KubernetesClient client, String name) {
        GenericKubernetesResource workflow = client.genericKubernetesResources(WORKFLOWS).inNamespace("default").withName(name).get();
        return workflow == null ? "absent" : String.valueOf(workflow.<Object>get("status", "phase"));
    }
}
