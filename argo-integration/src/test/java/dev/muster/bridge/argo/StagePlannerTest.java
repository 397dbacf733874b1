package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.muster.engine.model.Resources;
import org.junit.jupiter.api.Test;

class StagePlannerTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String WORKERS = """
              - name: small
                container: {image: busybox, resources: {requests: {cpu: "1", memory: 1Gi}}}
              - name: big
                container: {image: busybox, resources: {requests: {cpu: "3", memory: 2Gi}}}
            """;

    @Test
    void theWidestStepGroupIsTheFanOutOfItsItems() throws Exception {
        // when
        WorkflowStages stages = plan("""
                spec:
                  entrypoint: main
                  templates:
                  - name: main
                    steps:
                    - - {name: prepare, template: small}
                    - - {name: shards, template: big, withItems: [a, b, c]}
                    - - {name: report, template: small}
                """ + WORKERS);

        // then
        assertThat(stages.stages()).extracting(StageDemand::describe).containsExactly(
                "main[0] needs cpu 1, memory 1Gi (1 pod)", "main[1] needs cpu 9, memory 6Gi (3 pods)", "main[2] needs cpu 1, memory 1Gi (1 pod)");
        assertThat(stages.widest()).get().extracting(StageDemand::stage).isEqualTo("main[1]");
        assertThat(stages.need()).isEqualTo(Resources.of(9000, 6.0 * (1L << 30)));
        assertThat(stages.uncounted()).isEmpty();
    }

    @Test
    void aDagLevelIsEveryTaskOneStepBelowItsDeepestDependency() throws Exception {
        // when: Argo's diamond, B and C side by side
        WorkflowStages stages = plan("""
                spec:
                  entrypoint: diamond
                  templates:
                  - name: diamond
                    dag:
                      tasks:
                      - {name: A, template: small}
                      - {name: B, template: big, depends: A}
                      - {name: C, template: big, dependencies: [A]}
                      - {name: D, template: small, depends: "B && C.Succeeded"}
                """ + WORKERS);

        // then
        assertThat(stages.stages()).extracting(StageDemand::describe).containsExactly("diamond level 0 needs cpu 1, memory 1Gi (1 pod)",
                "diamond level 1 needs cpu 6, memory 4Gi (2 pods)", "diamond level 2 needs cpu 1, memory 1Gi (1 pod)");
        assertThat(stages.describe()).isEqualTo("widest stage diamond level 1 needs cpu 6, memory 4Gi (2 pods)");
    }

    @Test
    void aStepThatCallsAStepsTemplateCountsItsWidestStageForEachItem() throws Exception {
        // when
        WorkflowStages stages = plan("""
                spec:
                  entrypoint: main
                  templates:
                  - name: main
                    steps:
                    - - {name: pipelines, template: pipeline, withSequence: {count: "2"}}
                  - name: pipeline
                    steps:
                    - - {name: one, template: small}
                    - - {name: two, template: big}
                      - {name: three, template: small}
                """ + WORKERS);

        // then
        assertThat(stages.stages()).extracting(StageDemand::describe).containsExactly("main[0] needs cpu 8, memory 6Gi (4 pods)");
    }

    @Test
    void aFanOutOverAParameterCountsAsOneAndIsNamed() throws Exception {
        // when
        WorkflowStages stages = plan("""
                spec:
                  entrypoint: main
                  templates:
                  - name: main
                    steps:
                    - - {name: list, template: small}
                    - - {name: shards, template: big, withParam: "{{steps.list.outputs.result}}"}
                """ + WORKERS);

        // then
        assertThat(stages.widest()).get().extracting(StageDemand::describe).isEqualTo("main[1] needs cpu 3, memory 2Gi (1 pod)");
        assertThat(stages.uncounted()).containsExactly("main[1].shards: its fan-out (withParam) is known only when it runs; counted as one");
    }

    @Test
    void aTemplateThatCallsItselfIsCountedOnce() {
        // when: Argo's coinflip-recursive, whose tails step calls coinflip again
        WorkflowStages stages = StagePlanner.plan(TestingExamples.templates("coinflip-recursive").templates(), "coinflip");

        // then
        assertThat(stages.stages()).extracting(StageDemand::pods).containsExactly(1, 1);
        assertThat(stages.uncounted()).containsExactly("coinflip[1].tails: template 'coinflip' calls itself; counted once");
    }

    @Test
    void aDependencyOnAnUnknownTaskIsLeftOutSoTheTaskCountsInAnEarlierWiderLevel() throws Exception {
        // when
        WorkflowStages stages = plan("""
                spec:
                  entrypoint: dag
                  templates:
                  - name: dag
                    dag:
                      tasks:
                      - {name: A, template: big}
                      - {name: B, template: big, depends: "nope"}
                """ + WORKERS);

        // then
        assertThat(stages.stages()).extracting(StageDemand::pods).containsExactly(2);
    }

    private static WorkflowStages plan(String yaml) throws Exception {
        TemplateReader.Result templates = TemplateReader.read(YAML.readTree(yaml));
        assertThat(templates.problems()).isEmpty();
        return StagePlanner.plan(templates.templates(), YAML.readTree(yaml).path("spec").path("entrypoint").asText());
    }
}
