package dev.muster.engine.actions;

import static dev.muster.engine.testing.ClusterScenario.cpuMemory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import org.junit.jupiter.api.Test;

class NodePickerTest {
    private static final String CONFIG = """
            actions: "allocate"
            tiers:
            - plugins:
              - name: gang
              - name: predicates
              - name: binpack
            """;

    private static Session open(ClusterSnapshot snapshot) {
        return Session.open(snapshot, TestingScheduler.loader().parse("test.conf", CONFIG), TestingScheduler.CLOCK);
    }

    private static TaskState task(Session session, String id) {
        TaskId taskId = TaskId.parse(id);
        return session.jobs().stream()
                .flatMap(job -> job.tasks().stream())
                .filter(task -> task.id().equals(taskId))
                .findFirst()
                .orElseThrow();
    }

    private static NodeName name(String node) {
        return new NodeName(node);
    }

    @Test
    void nodeFilledByOneTaskIsRecheckedForItsTwin() {
        // given: n1 takes one task of the gang, n2 takes two
        Session session = open(ClusterScenario.builder()
                .node("n1", cpuMemory(2, 4))
                .node("n2", cpuMemory(4, 8))
                .queue("default", 1)
                .job("ns/gang", "default", 3, cpuMemory(2, 4), 3)
                .build());
        NodePicker picker = new NodePicker(session);
        TaskState first = task(session, "ns/gang-0");
        assertThat(picker.filter(first, session.nodes(), true).feasible()).extracting(NodeState::name)
                .containsExactly(name("n1"), name("n2"));

        // when
        session.newStatement().allocate(first, name("n1"));

        // then
        TaskState second = task(session, "ns/gang-1");
        NodePicker.Filtered filtered = picker.filter(second, session.nodes(), true);
        assertThat(filtered.feasible()).extracting(NodeState::name).containsExactly(name("n2"));
        assertThat(picker.best(second, filtered.feasible())).map(NodeState::name).contains(name("n2"));
    }

    @Test
    void nodeAtItsPodLimitIsRecheckedByThePredicates() {
        // given: n1 has room for resources but only one pod
        Session session = open(ClusterScenario.builder()
                .node("n1", cpuMemory(8, 16), 1)
                .node("n2", cpuMemory(8, 16))
                .queue("default", 1)
                .job("ns/gang", "default", 2, cpuMemory(1, 1), 2)
                .build());
        NodePicker picker = new NodePicker(session);
        TaskState first = task(session, "ns/gang-0");
        assertThat(picker.filter(first, session.nodes(), true).feasible()).hasSize(2);

        // when
        session.newStatement().allocate(first, name("n1"));

        // then
        NodePicker.Filtered filtered = picker.filter(task(session, "ns/gang-1"), session.nodes(), true);
        assertThat(filtered.feasible()).extracting(NodeState::name).containsExactly(name("n2"));
    }
}
