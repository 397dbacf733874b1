package dev.muster.engine.plugins.tasktopology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TaskTopologyTest {
    private static final SortedSet<String> ROLES = new TreeSet<>(List.of("chief", "ps", "worker"));

    @Test
    void noAnnotationMeansNoTopology() {
        assertThat(TaskTopology.read(Map.of("other", "x"), ROLES)).isEmpty();
    }

    @Test
    void groupsByNodeAreSeparatedBySemicolonsAndRolesByCommas() {
        TaskTopology topology = TaskTopology.read(Map.of(
                TaskTopology.AFFINITY, "ps, worker;chief",
                TaskTopology.ANTI_AFFINITY, "ps;",
                TaskTopology.TASK_ORDER, "chief,ps,worker"), ROLES).orElseThrow();

        assertThat(topology.affinity()).containsExactly(ImmutableList.of("ps", "worker"), ImmutableList.of("chief"));
        assertThat(topology.antiAffinity()).containsExactly(ImmutableList.of("ps"));
        assertThat(topology.taskOrder()).containsExactly("chief", "ps", "worker");
    }

    @Test
    void aRoleTheJobLacksIsRefusedWithTheAnnotationAndItsValue() {
        assertThatThrownBy(() -> TaskTopology.read(Map.of(TaskTopology.TASK_ORDER, "ps,evaluator"), ROLES))
                .hasMessage("annotation volcano.sh/task-topology-task-order 'ps,evaluator': 'evaluator' is not a role of the job"
                        + " (its roles, from volcano.sh/task-spec: chief, ps, worker)");
    }

    @Test
    void aRoleNamedTwiceInOneGroupIsRefused() {
        assertThatThrownBy(() -> TaskTopology.read(Map.of(TaskTopology.ANTI_AFFINITY, "ps,ps"), ROLES))
                .hasMessage("annotation volcano.sh/task-topology-anti-affinity 'ps,ps': 'ps' is named twice in one group");
    }
}
