package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.graph.Condition;
import dev.muster.graph.Dependency;
import dev.muster.graph.JobGraph;
import dev.muster.graph.Join;
import dev.muster.graph.NodeId;
import dev.muster.graph.NodeState;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Graphs built from Argo's own example workflows at v4.0.5, and from broken copies of them. */
class TemplateGraphsTest {
    private static final Condition BARE = Condition.anyOf(NodeState.SUCCEEDED, NodeState.SKIPPED, NodeState.RUNNING);

    @Test
    void theDiamondsDependsBecomeItsFourEdges() {
        // when
        TemplateGraphs.Result result = TemplateGraphs.of(TestingExamples.templates("dag-diamond").templates());

        // then
        assertThat(result.problems()).isEmpty();
        JobGraph graph = result.graphs().get("diamond").graph();
        assertThat(graph.nodes()).extracting(NodeId::value).containsExactly("A", "B", "C", "D");
        assertThat(graph.dependencies()).containsExactly(edge("A", "B", BARE), edge("A", "C", BARE), edge("B", "D", BARE), edge("C", "D", BARE));
        assertThat(graph.join(NodeId.of("D"))).isEqualTo(Join.ALL);
        assertThat(result.graphs().get("diamond").calls()).containsEntry(NodeId.of("D"), Optional.of("echo"));
        assertThat(result.graphs()).as("a container template has no graph").doesNotContainKey("echo");
    }

    @Test
    void enhancedDependsGiveEachEdgeTheResultsItWaitsFor() {
        // when
        JobGraph graph = TemplateGraphs.of(TestingExamples.templates("dag-enhanced-depends").templates()).graphs().get("diamond").graph();

        // then: "A && (C.Succeeded || C.Failed)", "B || C", "should-execute-2.Succeeded || should-not-execute"
        assertThat(graph.parents(NodeId.of("should-execute-1")))
                .containsExactly(edge("A", "should-execute-1", BARE), edge("C", "should-execute-1", Condition.COMPLETED));
        assertThat(graph.join(NodeId.of("should-execute-1"))).isEqualTo(Join.ALL);
        assertThat(graph.join(NodeId.of("should-execute-2"))).isEqualTo(Join.ANY);
        assertThat(graph.parents(NodeId.of("should-execute-3"))).containsExactly(
                edge("should-execute-2", "should-execute-3", Condition.SUCCEEDED), edge("should-not-execute", "should-execute-3", BARE));
        assertThat(graph.leaves()).extracting(NodeId::value).containsExactly("should-execute-1", "should-execute-3");
    }

    @Test
    void eachStepWaitsForEveryStepOfTheGroupBefore() {
        // when
        JobGraph graph = TemplateGraphs.of(TestingExamples.templates("steps").templates()).graphs().get("hello-hello-hello").graph();

        // then: Argo's node names for the steps, [group].name
        assertThat(graph.nodes()).extracting(NodeId::value).containsExactly("[0].hello1", "[1].hello2a", "[1].hello2b");
        assertThat(graph.dependencies()).containsExactly(edge("[0].hello1", "[1].hello2a", Condition.SUCCEEDED_OR_SKIPPED),
                edge("[0].hello1", "[1].hello2b", Condition.SUCCEEDED_OR_SKIPPED));
    }

    @Test
    void nestedTemplatesEachHaveTheirGraphAndTheOuterCallsTheInner() {
        // when
        TemplateGraphs.Result result = TemplateGraphs.of(TestingExamples.templates("dag-diamond-steps").templates());

        // then
        assertThat(result.graphs()).containsOnlyKeys("echo-thrice", "diamond");
        assertThat(result.graphs().get("diamond").calls()).containsEntry(NodeId.of("A"), Optional.of("echo-thrice"));
        assertThat(result.graphs().get("echo-thrice").graph().nodes()).extracting(NodeId::value).containsExactly("[0].echo");
    }

    @Test
    void anUnknownDependencyNamesTheTemplateTheTaskAndTheField() {
        // given: the diamond's D depends on a task that does not exist
        ObjectNode workflow = TestingExamples.load("dag-diamond");
        ObjectNode d = (ObjectNode) workflow.path("spec").path("templates").get(0).path("dag").path("tasks").get(3);
        d.put("depends", "B && E");

        // when
        TemplateGraphs.Result result = TemplateGraphs.of(TemplateReader.read(workflow).templates());

        // then
        assertThat(result.problems()).extracting(DagProblem::describe).containsExactly(
                "template 'diamond', task 'D': dag.tasks[3].depends: unknown task 'E' (tasks: A, B, C, D); it runs without DAG hints");
        assertThat(result.graphs()).doesNotContainKey("diamond");
    }

    @Test
    void anUnparsableDependsNamesWhereItBreaks() {
        // given
        ObjectNode workflow = TestingExamples.load("dag-diamond");
        ((ObjectNode) workflow.path("spec").path("templates").get(0).path("dag").path("tasks").get(3)).put("depends", "B &&");

        // when
        TemplateGraphs.Result result = TemplateGraphs.of(TemplateReader.read(workflow).templates());

        // then
        assertThat(result.problems()).extracting(DagProblem::describe).containsExactly("template 'diamond', task 'D': dag.tasks[3].depends: "
                + "'B &&': expected a task name, '!' or '(', found the end at column 5; it runs without DAG hints");
    }

    @Test
    void anUnknownEntryOfDependenciesIsReportedOnThatField() {
        // given: the old form, dependencies: [B, X]
        ObjectNode workflow = TestingExamples.load("dag-diamond");
        ObjectNode d = (ObjectNode) workflow.path("spec").path("templates").get(0).path("dag").path("tasks").get(3);
        d.remove("depends");
        ArrayNode dependencies = d.putArray("dependencies");
        dependencies.add("B").add("X");

        // when
        TemplateGraphs.Result result = TemplateGraphs.of(TemplateReader.read(workflow).templates());

        // then
        assertThat(result.problems()).extracting(DagProblem::field).containsExactly("dag.tasks[3].dependencies");
        assertThat(result.problems().get(0).message()).startsWith("unknown task 'X'");
    }

    @Test
    void aCycleIsNamed() {
        // given: A depends on D, which depends on A through B and C
        ObjectNode workflow = TestingExamples.load("dag-diamond");
        ((ObjectNode) workflow.path("spec").path("templates").get(0).path("dag").path("tasks").get(0)).put("depends", "D");

        // when
        TemplateGraphs.Result result = TemplateGraphs.of(TemplateReader.read(workflow).templates());

        // then
        assertThat(result.problems()).extracting(DagProblem::describe).singleElement().asString()
                .startsWith("template 'diamond': dag.tasks: cycle: A -> B -> D -> A");
    }

    @Test
    void aDependsOfTheWrongTypeIsAProblemOfItsField() {
        // given
        ObjectNode workflow = TestingExamples.load("dag-diamond");
        ((ObjectNode) workflow.path("spec").path("templates").get(0).path("dag").path("tasks").get(1)).put("depends", 7);

        // when
        TemplateReader.Result result = TemplateReader.read(workflow);

        // then
        assertThat(result.problems()).extracting(DagProblem::describe)
                .containsExactly("template 'diamond', task 'B': dag.tasks[1].depends: expected a string, got NUMBER; it runs without DAG hints");
    }

    private static Dependency edge(String parent, String child, Condition condition) {
        return new Dependency(NodeId.of(parent), NodeId.of(child), condition);
    }
}
