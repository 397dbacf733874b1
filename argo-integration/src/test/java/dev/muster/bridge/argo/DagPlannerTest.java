package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.api.GoDuration;
import dev.muster.engine.plugins.dag.DagAnnotations;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The {@code dag} plugin's annotations decided on the {@code status.nodes} of a run of the real Argo
 * v4.0.5 controller ({@code dag-fan-out}: a DAG {@code prepare -> train}, train a two-item fan-out with
 * retries), and on Argo's nested examples with a status written as Argo names its nodes.
 */
class DagPlannerTest {
    private static final Function<String, Optional<Duration>> NO_HISTORY = template -> Optional.empty();
    private static final String PREPARE_POD = "dag-fan-out-2271192547";
    private static final String TRAIN_FAN_OUT = "dag-fan-out-3209575842/worker";
    private static final String TRAIN_X_POD = "dag-fan-out-3075465614";

    @Test
    void eachStageCarriesTheRestOfTheCriticalPathFromItsTemplatesEstimates() {
        // given
        ObjectNode object = TestingWorkflows.load("dag-fan-out");
        estimate(object, "step", "5m");
        estimate(object, "worker", "600");

        // when
        DagPlan plan = DagPlanner.plan(TestingWorkflows.read(object), TemplateReader.read(object), NO_HISTORY);

        // then
        assertThat(plan.problems()).isEmpty();
        assertThat(plan.forNode(PREPARE_POD)).isEqualTo(Map.of(DagAnnotations.DAG, "default/dag-fan-out",
                DagAnnotations.NODE, "dag-fan-out.prepare", DagAnnotations.REMAINING_PATH, "900"));
        assertThat(plan.forNode(TRAIN_FAN_OUT)).containsEntry(DagAnnotations.NODE, "dag-fan-out.train")
                .containsEntry(DagAnnotations.REMAINING_PATH, "600");
        assertThat(plan.forNode(TRAIN_X_POD)).containsEntry(DagAnnotations.REMAINING_PATH, "600");
    }

    @Test
    void eachTaskOfTheRealDiamondRunCarriesWhatIsLeftAfterItsStart() {
        // given: Argo's dag-diamond as the real controller ran it, every task estimated at a minute
        ObjectNode object = TestingWorkflows.load("dag-diamond");

        // when
        DagPlan plan = DagPlanner.plan(TestingWorkflows.read(object), TemplateReader.read(object), NO_HISTORY);

        // then: A -> B (or C) -> D
        assertThat(plan.forNode("dag-diamond-2601828679")).containsEntry(DagAnnotations.NODE, "dag-diamond.A")
                .containsEntry(DagAnnotations.REMAINING_PATH, "180");
        assertThat(plan.forNode("dag-diamond-2618606298")).containsEntry(DagAnnotations.REMAINING_PATH, "120");
        assertThat(plan.forNode("dag-diamond-2635383917")).containsEntry(DagAnnotations.REMAINING_PATH, "120");
        assertThat(plan.forNode("dag-diamond-2517940584")).containsEntry(DagAnnotations.REMAINING_PATH, "60");
    }

    @Test
    void withoutEstimatesTheDurationsOfTheLastFinishedRunOfTheSameWorkflowCount() {
        // given: the run as the controller finished it: prepare took 1 s, each train pod 2 s
        Workflow finished = TestingWorkflows.read("dag-fan-out");
        DurationHistory history = new DurationHistory();
        history.record(finished);

        // when
        DagPlan plan = DagPlanner.plan(finished, TemplateReader.read(TestingWorkflows.load("dag-fan-out")),
                template -> history.duration(finished, template));

        // then
        assertThat(plan.forNode(PREPARE_POD)).containsEntry(DagAnnotations.REMAINING_PATH, "3");
        assertThat(plan.forNode(TRAIN_FAN_OUT)).containsEntry(DagAnnotations.REMAINING_PATH, "2");
    }

    @Test
    void withNeitherEstimateNorHistoryTheNodeIsNamedWithoutAPath() {
        // when
        DagPlan plan = DagPlanner.plan(TestingWorkflows.read("dag-fan-out"), TemplateReader.read(TestingWorkflows.load("dag-fan-out")),
                NO_HISTORY);

        // then
        assertThat(plan.forNode(PREPARE_POD)).containsOnlyKeys(DagAnnotations.DAG, DagAnnotations.NODE);
    }

    @Test
    void aTaskOfANestedDagAddsWhatIsLeftOfTheOuterDagAfterItsCaller() {
        // given: dag-nested, every echo 10 s, so each nested diamond takes 30 s and the outer one 90 s
        ObjectNode object = TestingExamples.load("dag-nested");
        estimate(object, "echo", "10s");
        ObjectNode nodes = status(object, "n", "DAG", "diamond");
        node(nodes, "n-b", "n.B", "DAG", "nested-diamond", "n");
        node(nodes, "n-b-a", "n.B.A", "Pod", "echo", "n-b");
        node(nodes, "n-a", "n.A", "DAG", "nested-diamond", "n");
        node(nodes, "n-a-d", "n.A.D", "Pod", "echo", "n-a");

        // when
        DagPlan plan = DagPlanner.plan(TestingWorkflows.read(object), TemplateReader.read(object), NO_HISTORY);

        // then: B.A has 30 s of its own diamond left, then D's 30 s; A.D has its 10 s, then B (or C) and D
        assertThat(plan.forNode("n-b-a")).containsEntry(DagAnnotations.REMAINING_PATH, "60").containsEntry(DagAnnotations.NODE, "n.B.A");
        assertThat(plan.forNode("n-a-d")).containsEntry(DagAnnotations.REMAINING_PATH, "70");
    }

    @Test
    void aStepOfAStepsTemplateInADagIsPlacedByItsGroup() {
        // given: dag-diamond-steps, each echo 5 s: every echo-thrice takes 5 s, the diamond 15 s
        ObjectNode object = TestingExamples.load("dag-diamond-steps");
        estimate(object, "echo", "5s");
        ObjectNode nodes = status(object, "s", "DAG", "diamond");
        node(nodes, "s-c", "s.C", "Steps", "echo-thrice", "s");
        node(nodes, "s-c-0", "s.C[0]", "StepGroup", "", "s-c");
        node(nodes, "s-c-0-1", "s.C[0].echo(1:2)", "Pod", "echo", "s-c");

        // when
        DagPlan plan = DagPlanner.plan(TestingWorkflows.read(object), TemplateReader.read(object), NO_HISTORY);

        // then
        assertThat(plan.forNode("s-c-0-1")).containsEntry(DagAnnotations.REMAINING_PATH, "10");
    }

    @Test
    void aTemplateThatCallsItselfHasNoPath() {
        // given: coinflip-recursive, whose coinflip steps may call coinflip again
        ObjectNode object = TestingExamples.load("coinflip-recursive");
        estimate(object, "flip-coin", "1s");
        estimate(object, "heads", "1s");
        ObjectNode nodes = status(object, "c", "Steps", "coinflip");
        node(nodes, "c-flip", "c[0].flip-coin", "Pod", "flip-coin", "c");

        // when
        DagPlan plan = DagPlanner.plan(TestingWorkflows.read(object), TemplateReader.read(object), NO_HISTORY);

        // then
        assertThat(plan.problems()).isEmpty();
        assertThat(plan.forNode("c-flip")).containsOnlyKeys(DagAnnotations.DAG, DagAnnotations.NODE);
    }

    @Test
    void aBadDagCostsTheWholeWorkflowItsHints() {
        // given: train depends on a task that does not exist, and a malformed estimate
        ObjectNode object = TestingWorkflows.load("dag-fan-out");
        ((ObjectNode) object.path("spec").path("templates").get(0).path("dag").path("tasks").get(1)).put("depends", "prepare && setup");
        estimate(object, "step", "soon");

        // when
        DagPlan plan = DagPlanner.plan(TestingWorkflows.read(object), TemplateReader.read(object), NO_HISTORY);

        // then
        assertThat(plan.annotations()).isEmpty();
        assertThat(plan.problems()).extracting(DagProblem::describe).containsExactly(
                "template 'main', task 'train': dag.tasks[1].depends: unknown task 'setup' (tasks: prepare, train); it runs without DAG hints",
                "template 'step': metadata.annotations.muster.dev/duration-estimate: 'soon' is not a duration"
                        + " (" + durationError("soon") + "); it runs without DAG hints");
    }

    private static String durationError(String text) {
        try {
            GoDuration.parse(text);
            throw new AssertionError("'" + text + "' parsed");
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static void estimate(ObjectNode workflow, String template, String value) {
        for (JsonNode each : workflow.path("spec").path("templates")) {
            if (each.path("name").asText().equals(template)) {
                child(child((ObjectNode) each, "metadata"), "annotations").put(ArgoTemplate.DURATION_ESTIMATE, value);
                return;
            }
        }
        throw new IllegalArgumentException("no template " + template);
    }

    /** Gives an example the metadata and root node of a run; Argo names the root node after the workflow. */
    private static ObjectNode status(ObjectNode workflow, String name, String type, String template) {
        child(workflow, "metadata").put("namespace", "default").put("name", name).put("uid", "uid-" + name);
        ObjectNode nodes = child(child(workflow, "status"), "nodes");
        node(nodes, name, name, type, template, "");
        return nodes;
    }

    private static ObjectNode child(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode existing ? existing : parent.putObject(field);
    }

    private static void node(ObjectNode nodes, String id, String name, String type, String template, String boundary) {
        ObjectNode node = nodes.putObject(id).put("id", id).put("name", name).put("type", type).put("phase", "Pending");
        if (!template.isEmpty()) {
            node.put("templateName", template);
        }
        if (!boundary.isEmpty()) {
            node.put("boundaryID", boundary);
        }
    }
}
