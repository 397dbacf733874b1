package dev.muster.engine.plugins.proportion;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.config.ConfigException;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.queue.QueueAttributes;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.util.List;
import org.assertj.core.data.Offset;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProportionPluginTest {
    private static final String ENQUEUE_ALLOCATE = """
            actions: "enqueue, allocate"
            tiers:
            - plugins:
              - name: gang
              - name: proportion
              - name: predicates
            """;

    /** Cores and decimal gigabytes, as Volcano's test cases write them ({@code 2G}). */
    static Resources resources(double cores, double gigabytes) {
        return Resources.of(cores * 1000, gigabytes * 1e9);
    }

    private static ClusterScenario.Builder twoQueuesHalfUsed() {
        return ClusterScenario.builder()
                .node("n1", resources(2, 2))
                .node("n2", resources(2, 2))
                .queue("q1", queue -> queue.capability(resources(2, 2)))
                .queue("q2", queue -> queue.capability(resources(3, 3)))
                .job("ns1/pg1", "q1", 1, resources(1, 2), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg1", "pod1", resources(1, 2), "n1")
                .minResources("ns1/pg1", resources(1, 2))
                .job("ns1/pg2", "q2", 1, resources(2, 1), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg2", "pod2", resources(2, 1), "n2")
                .minResources("ns1/pg2", resources(2, 1));
    }

    @Test
    void jobThatOnlyAsksForCpuIsAdmittedAndPlacedThoughItsQueueMemoryIsFull() {
        // given: volcano proportion TestEnqueueAndAllocable case0
        ClusterSnapshot snapshot = twoQueuesHalfUsed()
                .job("ns1/pg3", "q1", 1, resources(1, 0), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns1/pg3", resources(1, 0))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(ENQUEUE_ALLOCATE).runOnce(snapshot);

        // then
        assertThat(result.binds()).containsExactly(Map.entry(new TaskId("ns1", "pg3-0"), new NodeName("n1")));
    }

    @Test
    void jobWhoseMinimumExceedsTheQueueCapabilityStaysPending() {
        // given: volcano proportion TestEnqueueAndAllocable case2
        ClusterSnapshot snapshot = twoQueuesHalfUsed()
                .job("ns1/pg5", "q1", 1, resources(1, 1), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns1/pg5", resources(1, 1))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(ENQUEUE_ALLOCATE).runOnce(snapshot);

        // then
        assertThat(result.binds()).isEmpty();
        assertThat(result.jobs().get(JobId.parse("ns1/pg5")).phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(result.jobs().get(JobId.parse("ns1/pg5")).reason()).contains(
                "not admitted to queue q1: minResources (cpu 1, memory 1G) would take queue q1 over its capability,"
                        + " counting what it runs and has admitted: memory 3G > 2G");
    }

    @Test
    void queueThatIsNotOpenAdmitsNothing() {
        // given: volcano proportion TestEnqueueAndAllocable case4
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", resources(2, 2))
                .queue("q3", queue -> queue.capability(resources(3, 3)).state(QueueState.CLOSED))
                .job("ns1/pg6", "q3", 1, resources(1, 1), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns1/pg6", resources(1, 1))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(ENQUEUE_ALLOCATE).runOnce(snapshot);

        // then
        assertThat(result.binds()).isEmpty();
        assertThat(result.jobs().get(JobId.parse("ns1/pg6")).phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(result.jobs().get(JobId.parse("ns1/pg6")).reason()).contains("not admitted to queue q3: queue q3 is Closed, not Open");
    }

    @Test
    void taskThatWouldTakeItsQueuePastItsDeservedShareSaysSo() {
        // given: two queues of equal weight share 4 cpu; q1's gang of 3 needs more than its 2
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", resources(4, 8))
                .queue("q1", queue -> queue.weight(1))
                .queue("q2", queue -> queue.weight(1))
                .job("ns1/wide", "q1", 3, resources(1, 1), 3)
                .job("ns1/other", "q2", 2, resources(1, 1), 2)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(ENQUEUE_ALLOCATE).runOnce(snapshot);

        // then
        assertThat(result.jobs().get(JobId.parse("ns1/wide")).reason()).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("2/3 tasks of the gang fit")
                .contains("queue q1 (weight 1) would go over its deserved share: cpu 3 > 2"));
    }

    @Test
    void queuesAreServedByPriorityFirst() {
        // given: volcano proportion TestAllocate case0
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", ClusterScenario.cpuMemory(2, 4))
                .node("n2", ClusterScenario.cpuMemory(2, 4))
                .queue("q1", queue -> queue.capability(ClusterScenario.cpuMemory(2, 4)).priority(5))
                .queue("q2", queue -> queue.capability(ClusterScenario.cpuMemory(2, 4)).priority(1))
                .queue("q3", queue -> queue.capability(ClusterScenario.cpuMemory(2, 4)).priority(10))
                .job("ns1/pg1", "q1", 1, ClusterScenario.cpuMemory(2, 4), 0, PodGroupPhase.RUNNING, 0)
                .running("ns1/pg1", "p1", ClusterScenario.cpuMemory(2, 4), "n1")
                .job("ns1/pg2", "q2", 1, ClusterScenario.cpuMemory(2, 4), 1)
                .job("ns1/pg3", "q3", 1, ClusterScenario.cpuMemory(2, 4), 1)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig("""
                actions: "allocate"
                tiers:
                - plugins:
                  - name: proportion
                    enabledOverused: false
                    enabledAllocatable: false
                """).runOnce(snapshot);

        // then
        assertThat(result.binds()).containsExactly(Map.entry(new TaskId("ns1", "pg3-0"), new NodeName("n2")));
    }

    @Test
    void admittedMinimumsAddUpAgainstTheQueue() {
        // given: room in q1 for one of the two 2-cpu minimums
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(8))
                .queue("q1", queue -> queue.capability(cpu(3)))
                .job("ns/a", "q1", 1, cpu(2), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/a", cpu(2))
                .job("ns/b", "q1", 1, cpu(2), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/b", cpu(2))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig("""
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: proportion
                """).runOnce(snapshot);

        // then
        assertThat(result.jobs().get(JobId.parse("ns/a")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
        assertThat(result.jobs().get(JobId.parse("ns/b")).phase()).isEqualTo(PodGroupPhase.PENDING);
    }

    @Test
    void whatAJobHoldsBeyondItsMinimumDoesNotBlockAdmission() {
        // given: ns/elastic runs 3 cpu on a minimum of 1; only its minimum counts against the capability of 4
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(8))
                .queue("q1", queue -> queue.capability(cpu(4)))
                .job("ns/elastic", "q1", 1, cpu(1), 0, PodGroupPhase.RUNNING, 0)
                .running("ns/elastic", "elastic-0", cpu(1), "n1")
                .running("ns/elastic", "elastic-1", cpu(1), "n1")
                .running("ns/elastic", "elastic-2", cpu(1), "n1")
                .minResources("ns/elastic", cpu(1))
                .job("ns/next", "q1", 1, cpu(3), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/next", cpu(3))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig("""
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: proportion
                """).runOnce(snapshot);

        // then
        assertThat(result.jobs().get(JobId.parse("ns/next")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
    }

    static Stream<Arguments> waterFilling() {
        return Stream.of(
                Arguments.of("equal weights split the cluster evenly", 1, 1, cpu(8), cpu(8), Resources.EMPTY, cpu(4), cpu(4)),
                Arguments.of("weights 1:3 split the cluster 1:3", 1, 3, cpu(8), cpu(8), Resources.EMPTY, cpu(2), cpu(6)),
                Arguments.of("what a small queue does not request goes to the other", 1, 1, cpu(1), cpu(8), Resources.EMPTY, cpu(1), cpu(7)),
                Arguments.of("a guarantee raises the share", 1, 1, cpu(8), cpu(8), cpu(6), cpu(6), cpu(2)),
                Arguments.of("nobody deserves more than it requests", 1, 1, cpu(2), cpu(3), Resources.EMPTY, cpu(2), cpu(3)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("waterFilling")
    void deservedSharesFollowWeightsRequestsAndGuarantees(String description, int weightA, int weightB, Resources requestA,
            Resources requestB, Resources guaranteeA, Resources deservedA, Resources deservedB) {
        // given
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(8))
                .queue("a", queue -> queue.weight(weightA).guarantee(guaranteeA))
                .queue("b", queue -> queue.weight(weightB))
                .job("ns/a", "a", 1, requestA, 1)
                .job("ns/b", "b", 1, requestB, 1)
                .build();

        // when
        ProportionPlugin plugin = openProportion(snapshot);

        // then
        assertThat(plugin.attributes(new QueueName("a")).orElseThrow().deserved().milliCpu()).isCloseTo(deservedA.milliCpu(), within());
        assertThat(plugin.attributes(new QueueName("b")).orElseThrow().deserved().milliCpu()).isCloseTo(deservedB.milliCpu(), within());
    }

    @Test
    void queuesWithoutJobsTakeNoShare() {
        // given
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(8))
                .queue("busy", queue -> queue.weight(1))
                .queue("idle", queue -> queue.weight(100))
                .job("ns/a", "busy", 1, cpu(1), 8)
                .build();

        // when
        ProportionPlugin plugin = openProportion(snapshot);

        // then
        assertThat(plugin.attributes(new QueueName("busy")).orElseThrow().deserved().milliCpu()).isCloseTo(8000, within());
        assertThat(plugin.attributes(new QueueName("idle"))).isEmpty();
    }

    @Test
    void victimsAreTakenOnlyWhileTheirQueueHoldsMoreThanItDeserves() {
        // given: q1 holds 3 cpu and deserves 1 (q2 weighs 3 and asks for the rest); each victim gives back 1
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(4))
                .queue("q1", queue -> queue.weight(1))
                .queue("q2", queue -> queue.weight(3))
                .job("ns/greedy", "q1", 1, cpu(1), 0, PodGroupPhase.RUNNING, 0)
                .running("ns/greedy", "greedy-0", cpu(1), "n1")
                .running("ns/greedy", "greedy-1", cpu(1), "n1")
                .running("ns/greedy", "greedy-2", cpu(1), "n1")
                .job("ns/starved", "q2", 1, cpu(3), 1)
                .build();
        Session session = Session.open(snapshot, TestingScheduler.loader().parse("test.conf", """
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: proportion
                """), TestingScheduler.CLOCK);
        ProportionPlugin plugin = session.plugins().all(ProportionPlugin.class).get(0);
        JobState greedy = session.job(JobId.parse("ns/greedy")).orElseThrow();
        TaskState reclaimer = session.job(JobId.parse("ns/starved")).orElseThrow().tasks().iterator().next();

        // when
        List<TaskState> victims = plugin.reclaimable(reclaimer, List.copyOf(greedy.tasks())).orElseThrow();

        // then: q1 deserves 1 cpu, so two of its three tasks may go
        assertThat(plugin.attributes(new QueueName("q1")).orElseThrow().deserved().milliCpu()).isCloseTo(1000, within());
        assertThat(victims).extracting(TaskState::id)
                .containsExactly(new TaskId("ns", "greedy-0"), new TaskId("ns", "greedy-1"));
    }

    private static ProportionPlugin openProportion(ClusterSnapshot snapshot) {
        Session session = Session.open(snapshot, TestingScheduler.loader().parse("test.conf", """
                actions: "allocate"
                tiers:
                - plugins:
                  - name: proportion
                """), TestingScheduler.CLOCK);
        List<ProportionPlugin> plugins = session.plugins().all(ProportionPlugin.class);
        assertThat(plugins).hasSize(1);
        return plugins.get(0);
    }

    private static Offset<Double> within() {
        return Offset.offset(0.01);
    }

    @Test
    void attributesDescribeTheQueue() {
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(8))
                .queue("q1", queue -> queue.capability(cpu(2)))
                .job("ns/a", "q1", 1, cpu(1), 4)
                .build();

        QueueAttributes attributes = openProportion(snapshot).attributes(new QueueName("q1")).orElseThrow();

        assertThat(attributes.realCapability().milliCpu()).isEqualTo(2000);
        assertThat(attributes.request().milliCpu()).isEqualTo(4000);
        assertThat(attributes.deserved().milliCpu()).isCloseTo(2000, within());
    }

    @Test
    void proportionRefusesArgumentsItDoesNotKnow() {
        assertThatThrownBy(() -> TestingScheduler.loader().parse("test.conf", """
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: proportion
                    arguments:
                      weight: 2
                """))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers[0].plugins[0].arguments")
                .hasMessageContaining("unknown argument 'weight'");
    }
}
