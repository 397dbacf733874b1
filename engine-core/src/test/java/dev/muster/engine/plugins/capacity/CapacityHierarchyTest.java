package dev.muster.engine.plugins.capacity;

import static dev.muster.engine.plugins.capacity.CapacityPluginTest.open;
import static dev.muster.engine.plugins.capacity.CapacityPluginTest.pending;
import static dev.muster.engine.plugins.capacity.CapacityPluginTest.plugin;
import static dev.muster.engine.plugins.capacity.CapacityPluginTest.queue;
import static dev.muster.engine.plugins.capacity.CapacityPluginTest.running;
import static dev.muster.engine.testing.ClusterScenario.cpu;
import static dev.muster.engine.testing.ClusterScenario.cpuMemory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.config.ConfigException;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Capacity with {@code enableHierarchy: true}; cases from Volcano's capacity_test.go. */
class CapacityHierarchyTest {
    private static final String HIERARCHY = """
            actions: "enqueue, allocate"
            tiers:
            - plugins:
              - name: capacity
                enableHierarchy: true
              - name: predicates
              - name: gang
                enableJobReady: false
                enableJobPipelined: false
                enableJobOrder: false
            """;
    private static final TestingScheduler SCHEDULER = TestingScheduler.withConfig(HIERARCHY);

    @Test
    void taskInLeafQueueIsPlaced() {
        // given: case0
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpuMemory(8, 8))
                .queue("root", queue -> queue.weight(1))
                .queue("q1", queue -> queue.capability(cpuMemory(4, 4)).parent("root"))
                .queue("q2", queue -> queue.capability(cpuMemory(4, 4)).parent("root"))
                .queue("q11", queue -> queue.capability(cpuMemory(1, 1)).parent("q1"))
                .queue("q12", queue -> queue.capability(cpuMemory(3, 3)).parent("q1"))
                .job("ns1/pg1", "q11", 1, cpuMemory(1, 1), 1)
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(snapshot);

        // then
        assertThat(result.binds()).containsExactly(Map.entry(new TaskId("ns1", "pg1-0"), new NodeName("n1")));
    }

    @Test
    void tasksWithinEveryLevelsCapabilityArePlaced() {
        // given: case2
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpuMemory(8, 8))
                .queue("root", queue -> queue.weight(1))
                .queue("q3", queue -> queue.capability(cpuMemory(4, 4)).deserved(cpuMemory(4, 4)).parent("root"))
                .queue("q4", queue -> queue.capability(cpuMemory(4, 4)).deserved(cpuMemory(2, 2)).parent("root"))
                .queue("q31", queue -> queue.capability(cpuMemory(4, 4)).deserved(cpuMemory(2, 2)).parent("q3"))
                .queue("q32", queue -> queue.capability(cpuMemory(4, 4)).deserved(cpuMemory(2, 2)).parent("q3"))
                .job("ns1/pg3", "q31", 2, cpuMemory(2, 2), 2)
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(snapshot);

        // then
        assertThat(result.binds()).hasSize(2).containsValue(new NodeName("n1"));
    }

    @Test
    void taskIsNotPlacedWhenAnAncestorIsAtItsCapability() {
        // given: case4: q3 holds its whole 4 cpu through q31 and q32
        ClusterSnapshot snapshot = case4();

        // when
        SessionResult result = SCHEDULER.runOnce(snapshot);

        // then
        assertThat(result.binds()).isEmpty();
    }

    @Test
    void queueThatDeservesNothingItAsksForCannotReclaim() {
        // given: case4
        Session session = open(case4(), HIERARCHY);

        // when
        boolean preemptive = plugin(session).isPreemptive(queue(session, "q33"), pending(session, "ns1/pg8"));

        // then
        assertThat(preemptive).isFalse();
    }

    private static ClusterSnapshot case4() {
        return ClusterScenario.builder()
                .node("n1", cpuMemory(8, 8))
                .queue("root", queue -> queue.weight(1))
                .queue("q3", queue -> queue.capability(cpuMemory(4, 4)).deserved(cpuMemory(4, 4)).parent("root"))
                .queue("q31", queue -> queue.capability(cpuMemory(4, 4)).deserved(cpuMemory(2, 2)).parent("q3"))
                .queue("q32", queue -> queue.capability(cpuMemory(4, 4)).deserved(cpuMemory(2, 2)).parent("q3"))
                .queue("q33", queue -> queue.capability(cpuMemory(4, 4)).deserved(cpuMemory(0, 0)).parent("q3"))
                .job("ns1/pg5", "q31", 1, cpuMemory(2, 2), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg5", "p6", cpuMemory(2, 2), "n1")
                .job("ns1/pg7", "q32", 1, cpuMemory(2, 2), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg7", "p9", cpuMemory(2, 2), "n1")
                .job("ns1/pg8", "q33", 1, cpuMemory(3, 3), 1)
                .build();
    }

    @Test
    void jobIsNotAdmittedWhenAnAncestorHasAlreadyAdmittedItsCapability() {
        // given: case6: q61 and q62 inherit q6's capability, which fits one of the two minimums
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpuMemory(8, 8))
                .queue("root", queue -> queue.weight(1))
                .queue("q6", queue -> queue.capability(cpuMemory(2, 4)).parent("root"))
                .queue("q61", queue -> queue.parent("q6"))
                .queue("q62", queue -> queue.parent("q6"))
                .job("ns1/pg10", "q61", 1, cpuMemory(2, 4), 0, PodGroupPhase.PENDING, 0)
                .minResources("ns1/pg10", cpuMemory(2, 4))
                .job("ns1/pg11", "q62", 1, cpuMemory(2, 4), 0, PodGroupPhase.PENDING, 0)
                .minResources("ns1/pg11", cpuMemory(2, 4))
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(snapshot);

        // then
        assertThat(result.jobs().get(JobId.parse("ns1/pg10")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
        assertThat(result.jobs().get(JobId.parse("ns1/pg11")).phase()).isEqualTo(PodGroupPhase.PENDING);
    }

    @Test
    void scalarInTheDeservedShareDoesNotBlockATaskThatFits() {
        // given: case8
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n-gpu", ClusterScenario.gpu(8, 8, 8))
                .queue("root", queue -> queue.weight(1))
                .queue("q8", queue -> queue.deserved(ClusterScenario.gpu(4, 4, 8)).parent("root"))
                .queue("q81", queue -> queue.deserved(ClusterScenario.gpu(2, 2, 4)).parent("q8"))
                .queue("q82", queue -> queue.deserved(ClusterScenario.gpu(2, 2, 4)).parent("q8"))
                .job("ns1/pg12", "q81", 1, ClusterScenario.gpu(2, 2, 1), 1)
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(snapshot);

        // then
        assertThat(result.binds()).containsExactly(Map.entry(new TaskId("ns1", "pg12-0"), new NodeName("n-gpu")));
    }

    @Test
    void withoutARootQueueNothingIsAdmittedOrPlaced() {
        // given: buildHierarchicalQueueAttrs nil safety, with a job so that there is something to refuse
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpuMemory(4, 4))
                .job("ns/a", "default", 1, cpuMemory(1, 1), 1)
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(snapshot);

        // then
        assertThat(result.binds()).isEmpty();
    }

    @Test
    void jobInANonLeafQueueStopsTheWholeHierarchy() {
        // given
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(8))
                .queue("root", queue -> queue.weight(1))
                .queue("parent", queue -> queue.parent("root"))
                .queue("child", queue -> queue.parent("parent"))
                .job("ns/misplaced", "parent", 1, cpu(1), 1)
                .job("ns/fine", "child", 1, cpu(1), 1)
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(snapshot);

        // then
        assertThat(result.binds()).isEmpty();
    }

    @Test
    void childInheritsTheCapabilityItLeavesUnset() {
        // given
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(8))
                .queue("root", queue -> queue.weight(1))
                .queue("team", queue -> queue.capability(cpu(3)).parent("root"))
                .queue("dev", queue -> queue.parent("team"))
                .job("ns/a", "dev", 1, cpu(1), 1)
                .build();

        // when
        Session session = open(snapshot, HIERARCHY);

        // then
        assertThat(plugin(session).attributes(new QueueName("dev")).orElseThrow().realCapability().milliCpu()).isEqualTo(3000);
        assertThat(plugin(session).attributes(new QueueName("root")).orElseThrow().realCapability().milliCpu()).isEqualTo(Double.MAX_VALUE);
    }

    @Test
    void queueReclaimsFromASiblingThatUsesWhatItDoesNotDeserve() {
        // given: case12: queue12 deserves nothing, so its task holding two a100 is an immediate victim
        String a100 = "nvidia.com/a100";
        Resources task = cpuMemory(1, 1).withScalar(a100, 2000).withScalar("rdma/hca", 1000);
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n3", cpuMemory(16, 16).withScalar(a100, 5000).withScalar("rdma/hca", 1_001_000))
                .queue("root", queue -> queue.deserved(cpuMemory(16, 16).withScalar(a100, 4000)))
                .queue("case12_queue1", queue -> queue.deserved(Resources.EMPTY.withScalar(a100, 2000)).parent("root"))
                .queue("case12_queue11", queue -> queue.deserved(Resources.EMPTY.withScalar(a100, 2000)).parent("case12_queue1"))
                .queue("case12_queue12", queue -> queue.parent("case12_queue1"))
                .job("ns1/pg16", "case12_queue11", 1, task, 1)
                .job("ns1/pg17", "case12_queue12", 1, task, 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg17", "p17", task, "n3")
                .build();
        Session session = open(snapshot, HIERARCHY);
        CapacityPlugin plugin = plugin(session);
        TaskState reclaimer = pending(session, "ns1/pg16").get(0);

        // when
        boolean preemptive = plugin.isPreemptive(queue(session, "case12_queue11"), List.of(reclaimer));
        List<TaskState> victims = plugin.reclaimable(reclaimer, running(session, "ns1/pg17")).orElseThrow();

        // then
        assertThat(preemptive).isTrue();
        assertThat(victims).extracting(TaskState::id).containsExactly(new TaskId("ns1", "p17"));
    }

    @Test
    void victimsInTheCloserSubtreeComeFirst() {
        // given: a preemptor in team-a/x; team-a/y shares team-a with it, team-b/z only the root
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(8))
                .queue("root", queue -> queue.weight(1))
                .queue("team-a", queue -> queue.parent("root"))
                .queue("team-b", queue -> queue.parent("root"))
                .queue("x", queue -> queue.parent("team-a"))
                .queue("y", queue -> queue.parent("team-a"))
                .queue("z", queue -> queue.parent("team-b"))
                .build();
        Session session = open(snapshot, HIERARCHY);

        // when
        int order = plugin(session).compareVictimQueues(queue(session, "y"), queue(session, "z"), queue(session, "x"));

        // then
        assertThat(order).isNegative();
    }

    @Test
    void argumentsDefaultToNoAncestorReclaimLevel() {
        var config = TestingScheduler.loader().parse("test.conf", HIERARCHY);

        assertThat(config.tiers().get(0).get(0).args()).isEqualTo(CapacityArgs.DEFAULTS);
        assertThat(CapacityArgs.DEFAULTS.ancestorReclaimLevel()).isZero();
    }

    @Test
    void negativeAncestorReclaimLevelIsAConfigurationError() {
        assertThatThrownBy(() -> TestingScheduler.loader().parse("test.conf", """
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: capacity
                    enableHierarchy: true
                    arguments:
                      ancestorReclaimLevel: -1
                """))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers[0].plugins[0].arguments")
                .hasMessageContaining("ancestorReclaimLevel must not be negative");
    }
}
