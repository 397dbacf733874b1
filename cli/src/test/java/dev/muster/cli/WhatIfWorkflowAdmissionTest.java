package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.cache.ManifestProblem;
import dev.muster.engine.config.SchedulerConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code what-if} on a dump with Argo Workflows submitted suspended for admission: which its queue admits, which waits and why. */
class WhatIfWorkflowAdmissionTest {
    private static final String CLUSTER = """
            apiVersion: v1
            kind: Node
            metadata: {name: n1}
            status:
              allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
              capacity: {cpu: "16", memory: 64Gi, pods: "110"}
              conditions: [{type: Ready, status: "True"}]
            ---
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: Queue
            metadata: {name: pipelines, annotations: {muster.dev/admit-workflows: "true"}}
            spec: {weight: 1, capability: {cpu: "10"}}
            ---
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: Queue
            metadata: {name: default}
            spec: {weight: 1}
            """;
    private static final String WORKFLOW = """
            ---
            apiVersion: argoproj.io/v1alpha1
            kind: Workflow
            metadata:
              name: %s
              namespace: default
              uid: uid-%s
              creationTimestamp: "%s"
              annotations: {muster.dev/queue: pipelines}
            spec:
              suspend: true
              entrypoint: main
              templates:
              - name: main
                steps:
                - - {name: shards, template: worker, withItems: [a, b, c]}
              - name: worker
                container: {image: busybox, resources: {requests: {cpu: "3"}}}
            """;

    @TempDir
    Path directory;

    @Test
    void theOlderWorkflowWouldBeAdmittedAndTheYoungerWaitsForItsQueue() throws Exception {
        // given: two workflows of a queue that opts its workflows in, and room for one widest stage
        Path dump = Files.writeString(directory.resolve("cluster.yaml"), CLUSTER
                + WORKFLOW.formatted("younger", "younger", "2026-01-01T00:00:05Z") + WORKFLOW.formatted("older", "older", "2026-01-01T00:00:01Z"));
        SchedulerConfigLoader loader = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
        WhatIf whatIf = new WhatIf(loader, Clock.fixed(Instant.parse("2026-01-01T01:00:00Z"), ZoneOffset.UTC));

        // when
        WhatIf.Outcome outcome = whatIf.run(List.of(dump), Optional.empty(), Set.of("muster"));

        // then
        assertThat(outcome.workflows()).extracting(WorkflowAdmissions.Row::workflow, WorkflowAdmissions.Row::admission)
                .anySatisfy(row -> assertThat(row.toList()).containsExactly("default/older", "would be admitted and resumed"))
                .anySatisfy(row -> assertThat(row.toList().get(0)).isEqualTo("default/younger"));
        String table = WhatIfTable.workflows(outcome.workflows());
        assertThat(table).startsWith("WORKFLOWS").contains("widest stage main[0] needs cpu 9 (3 pods)")
                // the default admits what it can place now: the older's stage leaves n1 7 of its 16 cpu
                .containsPattern("default/younger +pipelines +widest stage main\\[0] needs cpu 9 \\(3 pods\\) +waits: not admitted to queue "
                        + "pipelines: no room to place the gang now: .*the closest is n1, with cpu 7");
        // the Workflows are admission's to read: the manifests' reader does not call them an unknown kind
        assertThat(outcome.manifests().problems()).extracting(ManifestProblem::describe).noneMatch(problem -> problem.contains("Workflow"));
    }
}
