package dev.muster.jobs.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.common.collect.ImmutableSet;
import dev.muster.jobs.Fields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobSpecPatchTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String TEMPLATE = """
            minAvailable: 2
            queue: default
            plugins: {env: [], svc: []}
            policies: [{event: PodFailed, action: RestartJob}]
            tasks:
            - name: worker
              replicas: 2
              template:
                metadata: {labels: {app: train}}
                spec:
                  nodeSelector: {zone: a}
                  containers:
                  - name: main
                    image: trainer:1
                    command: [python, train.py]
                    env: [{name: EPOCHS, value: '3'}, {name: LR, value: '0.1'}]
                    resources: {requests: {cpu: '2', memory: 1Gi}}
                  - name: sidecar
                    image: logger:1
            - name: ps
              replicas: 1
              template:
                spec:
                  containers: [{name: main, image: ps:1}]
            """;

    @Test
    void scalarsAndListsAreReplacedAndMapsMerged() throws IOException {
        ObjectNode patched = JobSpecPatch.apply(yaml(TEMPLATE), yaml("""
                minAvailable: 3
                plugins: {ssh: []}
                policies: [{event: PodEvicted, action: AbortJob}]
                """));

        assertThat(patched.path("minAvailable").asInt()).isEqualTo(3);
        assertThat(patched.path("queue").asText()).isEqualTo("default");
        assertThat(patched.path("plugins").properties()).extracting(entry -> entry.getKey()).containsExactly("env", "svc", "ssh");
        assertThat(patched.path("policies")).hasToString("[{\"event\":\"PodEvicted\",\"action\":\"AbortJob\"}]");
    }

    @Test
    void tasksAndContainersAreMatchedByNameAndMergedWhileOthersStayAsTheyWere() throws IOException {
        ObjectNode patched = JobSpecPatch.apply(yaml(TEMPLATE), yaml("""
                tasks:
                - name: worker
                  replicas: 4
                  template:
                    metadata: {labels: {stage: tuned}}
                    spec:
                      containers:
                      - name: main
                        image: trainer:2-cuda
                        env: [{name: EPOCHS, value: '10'}, {name: SEED, value: '7'}]
                        resources: {requests: {cpu: '4'}}
                """));

        ObjectNode worker = (ObjectNode) patched.path("tasks").get(0);
        ObjectNode main = (ObjectNode) worker.path("template").path("spec").path("containers").get(0);
        assertThat(worker.path("replicas").asInt()).isEqualTo(4);
        assertThat(worker.path("template").path("metadata").path("labels")).hasToString("{\"app\":\"train\",\"stage\":\"tuned\"}");
        assertThat(main.path("image").asText()).isEqualTo("trainer:2-cuda");
        assertThat(main.path("command")).hasToString("[\"python\",\"train.py\"]");
        assertThat(main.path("env")).hasToString(
                "[{\"name\":\"EPOCHS\",\"value\":\"10\"},{\"name\":\"LR\",\"value\":\"0.1\"},{\"name\":\"SEED\",\"value\":\"7\"}]");
        assertThat(main.path("resources").path("requests")).hasToString("{\"cpu\":\"4\",\"memory\":\"1Gi\"}");
        assertThat(worker.path("template").path("spec").path("containers").get(1).path("image").asText()).isEqualTo("logger:1");
        assertThat(patched.path("tasks").get(1)).isEqualTo(yaml(TEMPLATE).path("tasks").get(1));
    }

    @Test
    void anUnmatchedTaskOrContainerIsAddedAndANullRemovesAField() throws IOException {
        ObjectNode patched = JobSpecPatch.apply(yaml(TEMPLATE), yaml("""
                queue: null
                tasks:
                - name: ps
                  template:
                    spec:
                      containers: [{name: exporter, image: exporter:1}]
                - name: chief
                  replicas: 1
                  template: {spec: {containers: [{name: main, image: chief:1}]}}
                """));

        assertThat(patched.has("queue")).isFalse();
        assertThat(patched.path("tasks")).extracting(task -> task.path("name").asText()).containsExactly("worker", "ps", "chief");
        assertThat(patched.path("tasks").get(1).path("template").path("spec").path("containers"))
                .extracting(container -> container.path("name").asText()).containsExactly("main", "exporter");
    }

    @Test
    void theTemplateItselfIsNotChanged() throws IOException {
        ObjectNode template = yaml(TEMPLATE);

        JobSpecPatch.apply(template, yaml("tasks: [{name: worker, replicas: 9}]"));

        assertThat(template).isEqualTo(yaml(TEMPLATE));
    }

    @Test
    void aKeyedEntryWithoutItsKeyIsNamed() throws IOException {
        List<String> problems = new ArrayList<>();

        JobSpecPatch.check(yaml("""
                tasks:
                - replicas: 2
                - name: worker
                  template: {spec: {containers: [{image: trainer:2}]}}
                """), "spec.flows[0].patch.jobSpec", Fields.of(yaml("{}"), "", problems, ImmutableSet.of()));

        assertThat(problems).containsExactly(
                "spec.flows[0].patch.jobSpec.tasks[0].name: missing (a patch entry is matched to the template's by name)",
                "spec.flows[0].patch.jobSpec.tasks[1].template.spec.containers[0].name: missing (a patch entry is matched to the template's by name)");
    }

    private static ObjectNode yaml(String text) throws IOException {
        return (ObjectNode) YAML.readTree(text);
    }
}
