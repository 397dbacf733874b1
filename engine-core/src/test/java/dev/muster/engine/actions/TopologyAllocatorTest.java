package dev.muster.engine.actions;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static dev.muster.engine.testing.ClusterScenario.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NetworkTopology;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.SubGroupPolicy;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TopologyAllocatorTest {
    private static final TestingScheduler SCHEDULER = TestingScheduler.withConfig("""
            actions: "allocate"
            tiers:
            - plugins:
              - name: gang
              - name: predicates
              - name: network-topology-aware
            """);

    private static final Set<NodeName> SWITCH_0 = Set.of(new NodeName("s0-n1"), new NodeName("s0-n2"));
    private static final Set<NodeName> SWITCH_1 = Set.of(new NodeName("s1-n3"), new NodeName("s1-n4"));

    /** Two switches (tier 1) of two 2-cpu nodes under one spine (tier 2). */
    private static ClusterScenario.Builder twoSwitches() {
        return ClusterScenario.builder()
                .node("s0-n1", cpu(2))
                .node("s0-n2", cpu(2))
                .node("s1-n3", cpu(2))
                .node("s1-n4", cpu(2))
                .hyperNodeOfNodes("s0", 1, "s0-n1", "s0-n2")
                .hyperNodeOfNodes("s1", 1, "s1-n3", "s1-n4")
                .hyperNodeOfHyperNodes("s2", 2, "s0", "s1");
    }

    private static NetworkTopology hard(int tier) {
        return new NetworkTopology(true, Optional.of(tier), Optional.empty());
    }

    static Stream<Arguments> tierLimits() {
        NetworkTopology soft = new NetworkTopology(false, Optional.empty(), Optional.empty());
        return Stream.of(
                Arguments.of("hard tier 1: a gang larger than a switch is not placed", hard(1), 0),
                Arguments.of("hard tier 2: the gang spans both switches under the spine", hard(2), 3),
                Arguments.of("soft: best effort, the gang spans switches", soft, 3),
                Arguments.of("tier named by highestTierName that no hypernode has: no limit, the normal path",
                        new NetworkTopology(true, Optional.empty(), Optional.of("missing")), 3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tierLimits")
    void hardTierLimitBoundsWhereTheGangMayGo(String name, NetworkTopology topology, int expectedBinds) {
        // given
        ClusterSnapshot scenario = twoSwitches()
                .job("ns/train", "default", 3, cpu(2), 3)
                .networkTopology("ns/train", topology)
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(scenario);

        // then
        assertThat(result.binds()).hasSize(expectedBinds);
    }

    @Test
    void lowestGradientFirstKeepsAGangThatFitsOneSwitchInIt() {
        // given
        ClusterSnapshot scenario = twoSwitches()
                .job("ns/train", "default", 2, cpu(2), 2)
                .networkTopology("ns/train", hard(2))
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(scenario);

        // then
        assertThat(result.binds()).hasSize(2);
        assertThat(Set.copyOf(result.binds().values())).isIn(SWITCH_0, SWITCH_1);
    }

    @Test
    void placedJobRecordsTheLowestHypernodeHoldingItsTasks() {
        // given
        ClusterSnapshot scenario = twoSwitches()
                .job("ns/train", "default", 2, cpu(2), 2)
                .networkTopology("ns/train", hard(2))
                .build();

        // when
        Session session = SCHEDULER.runActions(scenario);

        // then
        assertThat(session.job(JobId.parse("ns/train")).orElseThrow().allocatedHyperNode()).contains("s0");
    }

    static Stream<Arguments> runningJobs() {
        return Stream.of(
                Arguments.of("a free node in the job's own switch takes the new task", false, Optional.of("s0-n2")),
                Arguments.of("the job's switch is full and tier 1 forbids the other switch", true, Optional.empty()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runningJobs")
    void runningJobGrowsOnlyWithinItsHypernodeAndTierLimit(String name, boolean switchFull, Optional<String> expectedNode) {
        // given
        ClusterScenario.Builder builder = twoSwitches()
                .job("ns/train", "default", 2, cpu(2), 0)
                .networkTopology("ns/train", hard(1))
                .pod(pod("ns/train", "train-0").request(cpu(2)).runningOn("s0-n1"))
                .pod(pod("ns/train", "train-1").request(cpu(2)));
        if (switchFull) {
            builder.job("ns/other", "default", 1, cpu(2), 0).pod(pod("ns/other", "other-0").request(cpu(2)).runningOn("s0-n2"));
        }

        // when
        SessionResult result = SCHEDULER.runOnce(builder.build());

        // then
        assertThat(Optional.ofNullable(result.binds().get(new TaskId("ns", "train-1"))).map(NodeName::value)).isEqualTo(expectedNode);
    }

    private static SubGroupPolicy byGroupLabel(int size, int minSubGroups, NetworkTopology topology) {
        return new SubGroupPolicy("workers", Optional.of(size), minSubGroups, false, ImmutableMap.of(), ImmutableList.of(),
                ImmutableList.of("group"), Optional.of(topology));
    }

    private static ClusterScenario.Builder twoSubGroups(ClusterScenario.Builder builder, int minMember, SubGroupPolicy policy) {
        builder.job("ns/train", "default", minMember, cpu(2), 0).subGroupPolicy("ns/train", policy);
        for (String group : new String[] {"a", "b"}) {
            for (int index = 0; index < 2; index++) {
                builder.pod(pod("ns/train", group + "-" + index).request(cpu(2)).label("group", group));
            }
        }
        return builder;
    }

    @Test
    void eachSubgroupIsKeptWithinItsOwnHypernode() {
        // given
        ClusterSnapshot scenario = twoSubGroups(twoSwitches(), 4, byGroupLabel(2, 0, hard(1))).build();

        // when
        SessionResult result = SCHEDULER.runOnce(scenario);

        // then
        assertThat(result.binds()).hasSize(4);
        for (String group : new String[] {"a", "b"}) {
            Set<NodeName> nodes = Set.of(result.binds().get(new TaskId("ns", group + "-0")), result.binds().get(new TaskId("ns", group + "-1")));
            assertThat(nodes).isIn(SWITCH_0, SWITCH_1);
        }
    }

    @Test
    void jobWaitsUntilMinSubGroupsCanBeReady() {
        // given: one switch is taken, so only one subgroup of two can be placed
        ClusterScenario.Builder builder = twoSubGroups(twoSwitches(), 2, byGroupLabel(2, 2, hard(1)))
                .job("ns/other", "default", 1, cpu(2), 0)
                .pod(pod("ns/other", "other-0").request(cpu(2)).runningOn("s1-n3"))
                .pod(pod("ns/other", "other-1").request(cpu(2)).runningOn("s1-n4"));

        // when
        SessionResult result = SCHEDULER.runOnce(builder.build());

        // then
        assertThat(result.binds()).isEmpty();
    }

    @Test
    void aGangPlacedByTopologyIsToldTheLimitOfItsQueue() {
        // given: 8 idle cpu, but the queue may use 2
        ClusterSnapshot scenario = twoSwitches()
                .queue("small", queue -> queue.capability(cpu(2)))
                .job("ns/train", "small", 2, cpu(2), 2)
                .networkTopology("ns/train", hard(2))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig("""
                actions: "allocate"
                tiers:
                - plugins:
                  - name: gang
                  - name: proportion
                  - name: predicates
                  - name: network-topology-aware
                """).runOnce(scenario);

        // then
        assertThat(result.binds()).isEmpty();
        assertThat(result.jobs().get(JobId.parse("ns/train")).reason()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("queue small would go over its capability: cpu 4 > 2")
                .doesNotContain("used up"));
    }
}
