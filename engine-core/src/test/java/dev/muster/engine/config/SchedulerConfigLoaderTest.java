package dev.muster.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.framework.ConfiguredPlugin;
import dev.muster.engine.framework.PluginFlag;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.plugins.predicates.PredicatesArgs;
import dev.muster.engine.testing.TestingScheduler;
import dev.muster.engine.yaml.Positions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SchedulerConfigLoaderTest {
    private final SchedulerConfigLoader loader = TestingScheduler.loader();

    @Test
    void readsVolcanoFormatWithActionsInOrderAndUnsetFlagsEnabled() {
        SessionConfig config = loader.parse("volcano-scheduler.conf", """
                actions: "enqueue, allocate"
                tiers:
                - plugins:
                  - name: priority
                  - name: gang
                    enablePreemptable: false
                - plugins:
                  - name: predicates
                    arguments:
                      predicate.NodeAffinityEnable: false
                """);

        assertThat(config.actions()).extracting(action -> action.name()).containsExactly("enqueue", "allocate");
        assertThat(config.tiers()).hasSize(2);
        ConfiguredPlugin gang = config.tiers().get(0).get(1);
        assertThat(gang.name()).isEqualTo("gang");
        assertThat(gang.disabled()).containsExactlyInAnyOrder(PluginFlag.PREEMPTABLE, PluginFlag.HIERARCHY);
        assertThat(config.tiers().get(0).get(0).disabled()).containsExactly(PluginFlag.HIERARCHY);
        PredicatesArgs args = (PredicatesArgs) config.tiers().get(1).get(0).args();
        assertThat(args.nodeAffinity()).isFalse();
        assertThat(args.taintToleration()).isTrue();
    }

    @Test
    void acceptsActionsAsAList() {
        SessionConfig config = loader.parse("s.yaml", """
                actions: [enqueue, allocate]
                tiers: [{plugins: [{name: gang}]}]
                """);

        assertThat(config.actions()).extracting(action -> action.name()).containsExactly("enqueue", "allocate");
    }

    @Test
    void argumentsOmittedKeepDefaults() {
        SessionConfig config = loader.parse("s.yaml", """
                actions: allocate
                tiers: [{plugins: [{name: predicates}]}]
                """);

        assertThat(config.tiers().get(0).get(0).args()).isEqualTo(PredicatesArgs.DEFAULTS);
    }

    static Stream<Arguments> invalidConfigurations() {
        return Stream.of(
                Arguments.of("misspelt plugin", """
                        actions: allocate
                        tiers: [{plugins: [{name: gnag}]}]
                        """, "tiers[0].plugins[0]: unknown plugin 'gnag'; did you mean 'gang'?"),
                Arguments.of("misspelt action", """
                        actions: "enqueue, alocate"
                        tiers: [{plugins: [{name: gang}]}]
                        """, "actions[1]: unknown action 'alocate'; did you mean 'allocate'?"),
                Arguments.of("misspelt flag", """
                        actions: allocate
                        tiers: [{plugins: [{name: gang, enableJobOrdr: false}]}]
                        """, "tiers[0].plugins[0]: unknown key 'enableJobOrdr'; did you mean 'enableJobOrder'?"),
                Arguments.of("flag that is not a boolean", """
                        actions: allocate
                        tiers: [{plugins: [{name: gang, enableJobOrder: maybe}]}]
                        """, "tiers[0].plugins[0].enableJobOrder: expected true or false, got 'maybe'"),
                Arguments.of("argument a plugin does not take", """
                        actions: allocate
                        tiers: [{plugins: [{name: gang, arguments: {size: 3}}]}]
                        """, "tiers[0].plugins[0].arguments: unknown argument 'size' (this takes no arguments)"),
                Arguments.of("misspelt argument", """
                        actions: allocate
                        tiers: [{plugins: [{name: predicates, arguments: {predicate.NodeAfinityEnable: false}}]}]
                        """, "unknown argument 'predicate.NodeAfinityEnable'; did you mean 'predicate.NodeAffinityEnable'?"),
                Arguments.of("argument of the wrong type", """
                        actions: allocate
                        tiers: [{plugins: [{name: predicates, arguments: {predicate.NodeAffinityEnable: [1]}}]}]
                        """, "tiers[0].plugins[0].arguments.predicate.NodeAffinityEnable: expected true or false, found a list"),
                Arguments.of("arguments of an action that is not listed", """
                        actions: enqueue
                        configurations: [{name: allocate, arguments: x}]
                        tiers: [{plugins: [{name: gang}]}]
                        """, "configurations[allocate].arguments: expected a mapping of argument names to values"),
                Arguments.of("an unknown argument of an action that is not listed", """
                        actions: allocate
                        configurations: [{name: preempt, arguments: {minCandidateNodesPercentag: 5}}]
                        tiers: [{plugins: [{name: gang}]}]
                        """, "configurations[preempt].arguments: unknown argument 'minCandidateNodesPercentag'; "
                                + "did you mean 'minCandidateNodesPercentage'?"),
                Arguments.of("a whole number given as text", """
                        actions: allocate, preempt
                        configurations: [{name: preempt, arguments: {minCandidateNodesPercentage: lots}}]
                        tiers: [{plugins: [{name: gang}]}]
                        """, "configurations[preempt].arguments.minCandidateNodesPercentage: 'lots' is not a valid int"),
                Arguments.of("an action configured twice", """
                        actions: allocate
                        configurations: [{name: allocate}, {name: allocate}]
                        tiers: [{plugins: [{name: gang}]}]
                        """, "configurations[1]: action 'allocate' is configured twice"),
                Arguments.of("two YAML documents", "actions: allocate\ntiers: [{plugins: [{name: gang}]}]\n---\nactions: enqueue\n",
                        "line 3: a second YAML document; a configuration is one document"),
                Arguments.of("deep nesting", "actions: " + "[".repeat(1500) + "]".repeat(1500) + "\n", "nests deeper than 1000 levels"),
                Arguments.of("missing tiers", """
                        actions: allocate
                        """, "tiers: missing"),
                Arguments.of("unknown top-level key", """
                        actions: allocate
                        tier: []
                        tiers: [{plugins: [{name: gang}]}]
                        """, "tier: unknown key; did you mean 'tiers'?"),
                Arguments.of("plugin configured twice", """
                        actions: allocate
                        tiers: [{plugins: [{name: gang}]}, {plugins: [{name: gang}]}]
                        """, "tiers[1].plugins[0]: plugin 'gang' is configured twice"),
                Arguments.of("proportion beside hierarchical drf in one tier", """
                        actions: allocate
                        tiers: [{plugins: [{name: drf, enableHierarchy: true}, {name: proportion}]}]
                        """, "tiers[0]: plugin 'proportion' cannot be used with 'drf' enableHierarchy: true in the same tier"),
                Arguments.of("an order of the dag plugin it does not have", """
                        actions: allocate
                        tiers: [{plugins: [{name: dag, arguments: {across-dags: shortest}}]}]
                        """, "tiers[0].plugins[0].arguments: across-dags must be soonest-end or longest-path, got 'shortest'"),
                Arguments.of("not YAML", "actions: [unclosed", "line 1, column 19: not valid YAML"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidConfigurations")
    void rejectsInvalidConfigurationNamingThePath(String description, String yaml, String expectedMessage) {
        assertThatThrownBy(() -> loader.parse("scheduler.yaml", yaml))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("scheduler.yaml: ")
                .hasMessageContaining(expectedMessage)
                .hasMessageNotContainingAny("Exception", "`", "Source:", "java.", "StreamReadConstraints");
    }

    @Test
    void aliasesInTheConfigurationAreResolved() {
        SessionConfig config = loader.parse("s.yaml", """
                actions: allocate
                tiers:
                - plugins: [&gang {name: gang}]
                - plugins: [{name: predicates}]
                """);

        assertThat(config.tiers().get(0)).extracting(ConfiguredPlugin::name).containsExactly("gang");
    }

    @Test
    void proportionAndHierarchicalDrfMayLiveInDifferentTiersAsInVolcano() {
        SessionConfig config = loader.parse("s.yaml", """
                actions: allocate
                tiers: [{plugins: [{name: drf, enableHierarchy: true}]}, {plugins: [{name: proportion}]}]
                """);

        assertThat(config.tiers()).hasSize(2);
    }

    @Test
    void reportsEveryProblemAtOnce() {
        assertThatThrownBy(() -> loader.parse("scheduler.yaml", """
                actions: "enqueue, alocate"
                tiers:
                - plugins:
                  - name: gnag
                  - name: predicates
                    arguments: {cpuWieght: 2}
                """))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).hasSize(3))
                .hasMessageContaining("scheduler.yaml: 3 problems");
    }

    @Test
    void eachProblemNamesTheLineAndColumnOfItsField() {
        assertThatThrownBy(() -> loader.parse("scheduler.yaml", """
                actions: "enqueue, allocate"
                tiers:
                - plugins:
                  - name: gang
                  - name: predicates
                    arguments: {cpuWieght: 2}
                """))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                        .singleElement()
                        .satisfies(problem -> assertThat(problem.position()).map(Positions.Position::describe).contains("line 6, column 5"))
                        .satisfies(problem -> assertThat(problem.toString()).startsWith("tiers[0].plugins[1].arguments: unknown argument").endsWith(" (line 6, column 5)")));
    }
}
