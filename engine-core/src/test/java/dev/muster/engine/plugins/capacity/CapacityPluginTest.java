package dev.muster.engine.plugins.capacity;

import static dev.muster.engine.testing.ClusterScenario.cpuMemory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Flat capacity (no {@code enableHierarchy}); cases from Volcano's capacity_test.go. */
class CapacityPluginTest {
    static final String FLAT = """
            actions: "enqueue, allocate"
            tiers:
            - plugins:
              - name: capacity
              - name: predicates
              - name: gang
                enableJobReady: false
                enableJobPipelined: false
                enableJobOrder: false
            """;

    static Resources resources(double cores, double gigabytes) {
        return Resources.of(cores * 1000, gigabytes * 1e9);
    }

    private static ClusterScenario.Builder queuesWithDeserved() {
        return ClusterScenario.builder()
                .node("n1", resources(3, 3))
                .node("n2", resources(3, 3))
                .queue("q1", queue -> queue.capability(resources(2, 2)).deserved(resources(2, 2)))
                .queue("q2", queue -> queue.capability(resources(3, 3)).deserved(resources(2, 2)))
                .job("ns1/pg1", "q1", 1, resources(1, 3), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg1", "pod1", resources(1, 3), "n1")
                .minResources("ns1/pg1", resources(1, 3))
                .job("ns1/pg2", "q2", 1, resources(3, 1), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg2", "pod2", resources(3, 1), "n2")
                .minResources("ns1/pg2", resources(3, 1));
    }

    @Test
    void jobThatOnlyAsksForCpuIsAdmittedAndPlacedThoughItsQueueMemoryIsOverDeserved() {
        // given: TestEnqueueAndAllocatable case0
        ClusterSnapshot snapshot = queuesWithDeserved()
                .job("ns1/pg3", "q1", 1, resources(1, 0), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns1/pg3", resources(1, 0))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(FLAT).runOnce(snapshot);

        // then
        assertThat(result.binds()).containsExactly(Map.entry(new TaskId("ns1", "pg3-0"), new NodeName("n1")));
    }

    @Test
    void jobWhoseMinimumExceedsTheRealCapabilityIsNotAdmitted() {
        // given: TestEnqueueAndAllocatable case2
        ClusterSnapshot snapshot = queuesWithDeserved()
                .job("ns1/pg5", "q1", 1, resources(1, 1), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns1/pg5", resources(1, 1))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(FLAT).runOnce(snapshot);

        // then
        assertThat(result.binds()).isEmpty();
        assertThat(result.jobs().get(JobId.parse("ns1/pg5")).phase()).isEqualTo(PodGroupPhase.PENDING);
    }

    @Test
    void queuesAreServedByPriority() {
        // given: OnSessionOpenWithoutHierarchy case4
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n5", cpuMemory(2, 4))
                .node("n6", cpuMemory(2, 4))
                .queue("q7", queue -> queue.capability(cpuMemory(2, 4)).priority(5))
                .queue("q8", queue -> queue.capability(cpuMemory(2, 4)).priority(1))
                .queue("q9", queue -> queue.capability(cpuMemory(2, 4)).priority(10))
                .job("ns1/pg10", "q7", 1, cpuMemory(2, 4), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg10", "p13", cpuMemory(2, 4), "n5")
                .job("ns1/pg11", "q8", 1, cpuMemory(2, 4), 1)
                .job("ns1/pg12", "q9", 1, cpuMemory(2, 4), 1)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(FLAT).runOnce(snapshot);

        // then
        assertThat(result.binds()).containsExactly(Map.entry(new TaskId("ns1", "pg12-0"), new NodeName("n6")));
    }

    @Test
    void taskBeyondTheRealCapabilityIsNotAllocatable() {
        // given: OnSessionOpenWithoutHierarchy case10, where queue21 holds 7 of its 8 cpu
        ClusterSnapshot snapshot = case10();

        // when
        SessionResult result = TestingScheduler.withConfig(FLAT).runOnce(snapshot);

        // then
        assertThat(result.binds()).isEmpty();
    }

    @Test
    void queueCannotReclaimWhenThatWouldExceedItsCapability() {
        // given: OnSessionOpenWithoutHierarchy case10
        Session session = open(case10());
        CapacityPlugin plugin = plugin(session);

        // when
        boolean preemptive = plugin.isPreemptive(queue(session, "queue21"), pending(session, "ns1/pg34"));

        // then
        assertThat(preemptive).isFalse();
    }

    private static ClusterSnapshot case10() {
        return ClusterScenario.builder()
                .node("n9", cpuMemory(8, 100))
                .node("n10", cpuMemory(8, 100))
                .queue("queue21", queue -> queue.capability(cpuMemory(8, 100)).deserved(cpuMemory(8, 100)))
                .queue("queue22", queue -> queue.capability(cpuMemory(2, 5)))
                .job("ns1/pg33", "queue21", 1, cpuMemory(7, 90), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg33", "p33", cpuMemory(7, 90), "n9")
                .job("ns1/pg34", "queue21", 1, cpuMemory(2, 5), 1)
                .job("ns1/pg35", "queue22", 1, cpuMemory(2, 5), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg35", "p35", cpuMemory(2, 5), "n10")
                .build();
    }

    @Test
    void queueReclaimsWhileBelowItsDeservedShareFromAQueueAboveIt() {
        // given: OnSessionOpenWithoutHierarchy case2
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpuMemory(2, 4))
                .node("n2", cpuMemory(2, 4))
                .queue("q3", queue -> queue.deserved(cpuMemory(2, 4)))
                .queue("q4", queue -> queue.deserved(cpuMemory(2, 4)))
                .job("ns1/pg5", "q3", 1, cpuMemory(2, 4), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg5", "p5", cpuMemory(2, 4), "n1")
                .running("ns1/pg5", "p6", cpuMemory(2, 4), "n2")
                .job("ns1/pg6", "q4", 1, cpuMemory(2, 4), 1)
                .build();
        Session session = open(snapshot);
        CapacityPlugin plugin = plugin(session);
        TaskState reclaimer = pending(session, "ns1/pg6").get(0);

        // when
        boolean preemptive = plugin.isPreemptive(queue(session, "q4"), List.of(reclaimer));
        // p5 is not preemptable upstream, so the reclaim action offers only p6
        List<TaskState> candidates = running(session, "ns1/pg5").stream()
                .filter(task -> task.id().name().equals("p6"))
                .toList();
        List<TaskState> victims = plugin.reclaimable(reclaimer, candidates).orElseThrow();

        // then
        assertThat(preemptive).isTrue();
        assertThat(victims).extracting(TaskState::id).containsExactly(new TaskId("ns1", "p6"));
    }

    @Test
    void queueAtItsDeservedShareOnEveryRequestedDimensionCannotReclaim() {
        // given: OnSessionOpenWithoutHierarchy case6
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpuMemory(2, 4))
                .queue("q12", queue -> queue.capability(cpuMemory(4, 4)).deserved(cpuMemory(1, 2)))
                .queue("q13", queue -> queue.capability(cpuMemory(2, 2)).deserved(cpuMemory(0, 0)))
                .job("ns1/pg19", "q12", 1, cpuMemory(1, 1), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg19", "p19", cpuMemory(1, 1), "n1")
                .job("ns1/pg20", "q12", 1, cpuMemory(1, 2), 1)
                .job("ns1/pg21", "q13", 1, cpuMemory(1, 1), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg21", "p21", cpuMemory(1, 1), "n1")
                .build();
        Session session = open(snapshot);

        // when
        boolean preemptive = plugin(session).isPreemptive(queue(session, "q12"), pending(session, "ns1/pg20"));

        // then
        assertThat(preemptive).isFalse();
    }

    @Test
    void victimsMustShareADimensionWithTheReclaimerAndExceedWhatTheirQueueDeserves() {
        // given: OnSessionOpenWithoutHierarchy case8
        Resources gpu = Resources.EMPTY.withScalar(Resources.GPU, 1000);
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n8", cpuMemory(4, 8).withScalar(Resources.GPU, 1000))
                .queue("queue17", queue -> queue.deserved(cpuMemory(2, 2)))
                .queue("queue18", queue -> queue.deserved(cpuMemory(2, 4).withScalar(Resources.GPU, 1000)))
                .job("ns1/pg26", "queue17", 1, cpuMemory(0, 4), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg26", "p26", cpuMemory(0, 4), "n8")
                .job("ns1/pg27", "queue17", 1, cpuMemory(1, 0), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg27", "p27", cpuMemory(1, 0), "n8")
                .job("ns1/pg28", "queue17", 1, gpu, 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg28", "p28", gpu, "n8")
                .job("ns1/pg29", "queue18", 1, cpuMemory(2, 4), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg29", "p29", cpuMemory(2, 4), "n8")
                .job("ns1/pg30", "queue18", 1, cpuMemory(1, 0).withScalar(Resources.GPU, 1000), 1)
                .build();
        Session session = open(snapshot);
        CapacityPlugin plugin = plugin(session);
        TaskState reclaimer = pending(session, "ns1/pg30").get(0);
        List<TaskState> candidates = new ArrayList<>();
        for (String job : List.of("ns1/pg26", "ns1/pg27", "ns1/pg28")) {
            candidates.addAll(running(session, job));
        }

        // when
        boolean preemptive = plugin.isPreemptive(queue(session, "queue18"), List.of(reclaimer));
        List<TaskState> victims = plugin.reclaimable(reclaimer, candidates).orElseThrow();

        // then: p26 uses only memory the reclaimer does not ask for; p27 leaves queue17 within its cpu share
        assertThat(preemptive).isTrue();
        assertThat(victims).extracting(TaskState::id).containsExactly(new TaskId("ns1", "p28"));
    }

    @Test
    void bestEffortQueueGoesAfterQueueWithDeservedShareOnEqualShares() {
        // given: with-deserved holds exactly its deserved share, 1, which is what a best-effort queue always counts
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpuMemory(4, 4))
                .queue("best-effort", queue -> queue.weight(1))
                .queue("with-deserved", queue -> queue.deserved(cpuMemory(1, 1)))
                .job("ns/a", "best-effort", 1, cpuMemory(1, 1), 0, PodGroupPhase.RUNNING, 0)
                .running("ns/a", "a-0", cpuMemory(1, 1), "n1")
                .job("ns/b", "with-deserved", 1, cpuMemory(1, 1), 0, PodGroupPhase.RUNNING, 0)
                .running("ns/b", "b-0", cpuMemory(1, 1), "n1")
                .build();
        Session session = open(snapshot);

        // when
        int order = plugin(session).compareQueues(queue(session, "best-effort"), queue(session, "with-deserved"));

        // then
        assertThat(order).isPositive();
    }

    static Session open(ClusterSnapshot snapshot) {
        return open(snapshot, FLAT);
    }

    static Session open(ClusterSnapshot snapshot, String config) {
        return Session.open(snapshot, TestingScheduler.loader().parse("test.conf", config), TestingScheduler.CLOCK);
    }

    static CapacityPlugin plugin(Session session) {
        return session.plugins().all(CapacityPlugin.class).get(0);
    }

    static Queue queue(Session session, String name) {
        return session.queue(new QueueName(name)).orElseThrow();
    }

    static List<TaskState> pending(Session session, String job) {
        JobState state = session.job(JobId.parse(job)).orElseThrow();
        return state.tasksWithStatus(TaskStatus.PENDING);
    }

    static List<TaskState> running(Session session, String job) {
        JobState state = session.job(JobId.parse(job)).orElseThrow();
        return state.tasksWithStatus(TaskStatus.RUNNING);
    }
}
