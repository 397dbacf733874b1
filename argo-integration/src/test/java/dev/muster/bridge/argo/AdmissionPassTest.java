package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.cache.ResourceKind;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.runtime.admission.AdmissionTrial;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.binding.RetryPolicy;
import dev.muster.runtime.controller.CustomResourceDefinitions;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Admission passes against a test API server, with the scheduler's cache holding one node of 16 CPUs and a queue of 10. */
class AdmissionPassTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    private final TestingApiServer server = new TestingApiServer(new CustomResourceDefinitions(ArgoBridgeModule.class, ArgoBridgeModule.CRDS));
    private final KubernetesClient client = server.client();
    private final ClusterCache cache = new ClusterCache(Set.of("muster"), CLOCK);
    private final AdmissionPass pass = new AdmissionPass(
            () -> client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace("default").list().getItems(),
            () -> client.genericKubernetesResources(GangTerm.QUEUES).list().getItems(),
            // Volcano's configuration, whose enqueue checks only the queue: the queue's capability is what these
            // tests hold the passes to (under Muster's default, placeable names the lack of node room first once
            // the first workflow's stage is held; ArgoAdmissionOnMusterUpTest runs admission under the default)
            new AdmissionTrial(cache, Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class)
                    .parse(DefaultSchedulerConfig.VOLCANO_SOURCE, DefaultSchedulerConfig.volcanoText()), CLOCK),
            new AdmissionWriter(client, Optional.empty(), EventRecorder.connect(client, RetryPolicy.DEFAULT, CLOCK, GangWriter.COMPONENT), CLOCK));

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theQueueAdmitsTheFirstWorkflowAndTheSecondWaitsWhileTheFirstRuns() throws Exception {
        // given
        queueOfTenCpus();
        workflow("first", "pipelines");
        workflow("second", "pipelines");

        // when: two passes, the second seeing the first admitted
        boolean waitingAfterFirstPass = pass.run();
        boolean waitingAfterSecondPass = pass.run();

        // then
        assertThat(waitingAfterFirstPass).isTrue();
        assertThat(waitingAfterSecondPass).isTrue();
        assertThat(spec("first")).doesNotContainKey("suspend");
        assertThat(annotations("first")).containsEntry(AdmissionAnnotations.ADMITTED, "2026-01-01T00:00:00Z");
        assertThat(spec("second")).containsEntry("suspend", true);
        assertThat(annotations("second")).doesNotContainKey(AdmissionAnnotations.ADMITTED);
        assertThat(events("first")).containsExactly("Admitted: admitted to queue pipelines: widest stage main[0] needs cpu 9 (3 pods)");
        assertThat(events("second")).singleElement().asString()
                .startsWith("WaitingForQueue: waits for queue pipelines: widest stage main[0] needs cpu 9 (3 pods); not admitted to queue pipelines: ")
                .contains("cpu 18 > 10");
    }

    @Test
    void aWorkflowOfAQueueThatDoesNotExistIsResumedWithAWarning() throws Exception {
        // given
        queueOfTenCpus();
        workflow("lost", "nope");

        // when
        boolean waiting = pass.run();

        // then
        assertThat(waiting).isFalse();
        assertThat(spec("lost")).doesNotContainKey("suspend");
        assertThat(annotations("lost")).doesNotContainKey(AdmissionAnnotations.ADMITTED);
        assertThat(events("lost")).containsExactly(
                "AdmissionIgnored: metadata.annotations.muster.dev/queue: queue 'nope' does not exist; resumed without admission");
    }

    private void queueOfTenCpus() throws Exception {
        String queue = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: pipelines}
                spec: {weight: 1, capability: {cpu: "10"}}
                """;
        client.genericKubernetesResources(GangTerm.QUEUES).resource(YAML.readValue(queue, GenericKubernetesResource.class)).create();
        cache.put(ResourceKind.QUEUE, (ObjectNode) YAML.readTree(queue));
        cache.put(ResourceKind.NODE, (ObjectNode) YAML.readTree("""
                apiVersion: v1
                kind: Node
                metadata: {name: n1}
                status:
                  allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
                  capacity: {cpu: "16", memory: 64Gi, pods: "110"}
                  conditions: [{type: Ready, status: "True"}]
                """));
    }

    private void workflow(String name, String queue) throws Exception {
        client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace("default").resource(YAML.readValue("""
                apiVersion: argoproj.io/v1alpha1
                kind: Workflow
                metadata:
                  name: %s
                  annotations: {muster.dev/admit: "true", muster.dev/queue: %s}
                spec:
                  suspend: true
                  entrypoint: main
                  templates:
                  - name: main
                    steps:
                    - - {name: shards, template: worker, withItems: [a, b, c]}
                  - name: worker
                    container: {image: busybox, resources: {requests: {cpu: "3"}}}
                """.formatted(name, queue), GenericKubernetesResource.class)).create();
    }

    private Map<String, Object> spec(String workflow) {
        return workflowObject(workflow).get("spec");
    }

    private Map<String, String> annotations(String workflow) {
        Map<String, String> annotations = workflowObject(workflow).getMetadata().getAnnotations();
        return annotations == null ? Map.of() : annotations;
    }

    private GenericKubernetesResource workflowObject(String name) {
        return client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace("default").withName(name).get();
    }

    private List<String> events(String workflow) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getName().equals(workflow))
                .map((Event event) -> event.getReason() + ": " + event.getMessage())
                .toList();
    }
}
