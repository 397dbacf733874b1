package dev.muster.jobs.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.common.collect.ImmutableList;
import dev.muster.jobs.JobReadResult;
import dev.muster.jobs.TestingJobs;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobFlowReaderTest {
    @Test
    void readsTheFixture() {
        List<JsonNode> documents = TestingJobs.fixture("jobflow-three-stages.yaml");

        JobTemplate train = JobFlowReader.readTemplate(documents.get(1)).orElseThrow();
        JobFlow flow = JobFlowReader.readFlow(documents.get(3)).orElseThrow();

        assertThat(train.spec().runningEstimate()).contains(Duration.ofHours(2));
        assertThat(train.specJson().path("plugins").has("svc")).isTrue();
        assertThat(flow.flows()).containsExactly(new Flow("prepare", ImmutableList.of()), new Flow("train", ImmutableList.of("prepare")),
                new Flow("evaluate", ImmutableList.of("train")));
        assertThat(flow.deleteJobsOnSuccess()).isFalse();
        assertThat(flow.jobName("train")).isEqualTo("mnist-train");
    }

    @Test
    void aFlowKeepsItsPatch() throws IOException {
        JsonNode manifest = new ObjectMapper(new YAMLFactory()).readTree("""
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: f, namespace: ns}
                spec:
                  flows:
                  - name: a
                    patch: {jobSpec: {queue: q}}
                """);

        JobFlow flow = JobFlowReader.readFlow(manifest).orElseThrow();

        assertThat(flow.flows().get(0).patch()).hasValueSatisfying(patch -> assertThat(patch).hasToString("{\"queue\":\"q\"}"));
    }

    @Test
    void unsupportedAndUnknownFieldsAreNamed() throws IOException {
        JsonNode manifest = new ObjectMapper(new YAMLFactory()).readTree("""
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: f, namespace: ns}
                spec:
                  jobRetainPolicy: keep
                  flows:
                  - name: a
                    patch: {spec: {queue: q}}
                  - name: b
                    dependsOn: {targets: [a], after: 5m}
                """);

        JobReadResult<JobFlow> result = JobFlowReader.readFlow(manifest);

        assertThat(result.problems()).containsExactly(
                "JobFlow ns/f: spec.jobRetainPolicy: unknown policy 'keep' (known: retain, delete)",
                "JobFlow ns/f: spec.flows[0].patch.spec: unknown field (known: jobSpec)",
                "JobFlow ns/f: spec.flows[1].dependsOn.after: unknown field (known: probe, targets)");
    }
}
