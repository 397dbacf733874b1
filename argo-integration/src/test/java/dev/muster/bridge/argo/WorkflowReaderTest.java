package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading Workflows as the real Argo v4.0.5 controller left them, and refusing fields of the wrong type. */
class WorkflowReaderTest {
    @Test
    void readsTheNodesAndTheTemplatesPodAnnotationsOfARealRun() {
        // when
        Workflow workflow = TestingWorkflows.read("steps-fan-out");

        // then
        assertThat(workflow.name()).isEqualTo("steps-fan-out");
        assertThat(workflow.uid()).isNotEmpty();
        assertThat(workflow.podAnnotations("worker")).containsEntry(GangAnnotations.GANG, "true");
        assertThat(workflow.nodes()).hasSize(5);
        assertThat(workflow.node("steps-fan-out-196408049")).hasValueSatisfying(group -> {
            assertThat(group.type()).isEqualTo(NodeType.STEP_GROUP);
            assertThat(group.templateName()).isEmpty();
            assertThat(group.children()).hasSize(3);
        });
        assertThat(workflow.node("steps-fan-out-1456974123")).hasValueSatisfying(pod -> {
            assertThat(pod.type()).isEqualTo(NodeType.POD);
            assertThat(pod.templateName()).isEqualTo("worker");
            assertThat(pod.phase()).isEqualTo("Succeeded");
        });
    }

    @Test
    void aFieldOfTheWrongTypeIsAProblemNamingIt() {
        // given
        ObjectNode object = TestingWorkflows.load("steps-fan-out");
        ((ObjectNode) object.path("status").path("nodes").path("steps-fan-out-196408049")).put("children", "steps-fan-out-1456974123");

        // when
        WorkflowReader.Result result = WorkflowReader.read(object);

        // then
        assertThat(result.workflow()).isEmpty();
        assertThat(result.problems()).containsExactly("status.nodes.steps-fan-out-196408049.children: expected an array, got STRING");
    }

    @Test
    void aNodeTypeArgoDoesNotDefineIsAProblem() {
        // given
        ObjectNode object = TestingWorkflows.load("steps-fan-out");
        ((ObjectNode) object.path("status").path("nodes").path("steps-fan-out-1456974123")).put("type", "Container Group");

        // when
        WorkflowReader.Result result = WorkflowReader.read(object);

        // then
        assertThat(result.problems()).containsExactly("status.nodes.steps-fan-out-1456974123.type: 'Container Group' is not a node type of Argo's");
    }

    @Test
    void compressedNodesAreNotReadAndSaySo() {
        // given
        ObjectNode object = TestingWorkflows.load("steps-fan-out");
        ObjectNode status = (ObjectNode) object.path("status");
        status.remove("nodes");
        status.put("compressedNodes", "H4sIAAAAAAAA/6quBQQAAP//Q7+m1gIAAAA=");

        // when
        WorkflowReader.Result result = WorkflowReader.read(object);

        // then
        assertThat(result.problems()).singleElement().asString().startsWith("status.nodes: compressed or offloaded");
    }

    @Test
    void aWorkflowWithoutStatusHasNoNodes() {
        // given
        ObjectNode object = TestingWorkflows.withAnnotations("steps-fan-out", "worker", Map.of());
        object.remove("status");

        // when
        Workflow workflow = TestingWorkflows.read(object);

        // then
        assertThat(workflow.nodes()).isEmpty();
        assertThat(workflow.podAnnotations("worker")).isEmpty();
    }
}
