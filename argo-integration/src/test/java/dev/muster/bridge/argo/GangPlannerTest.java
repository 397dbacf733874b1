package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.Resources;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Gangs decided on the {@code status.nodes} of workflows the real Argo v4.0.5 controller ran. */
class GangPlannerTest {
    @Test
    void eachFanOutOfAGangTemplateIsOnePodGroupOfAllItsPods() {
        // when
        GangPlan plan = GangPlanner.plan(TestingWorkflows.read("steps-fan-out"), Set.of());

        // then
        assertThat(plan.problems()).isEmpty();
        assertThat(plan.podGroups()).singleElement().satisfies(podGroup -> {
            assertThat(podGroup.name()).isEqualTo("steps-fan-out-196408049-worker");
            assertThat(podGroup.minMember()).isEqualTo(3);
            assertThat(podGroup.queue()).isEmpty();
            assertThat(podGroup.workflowName()).isEqualTo("steps-fan-out");
        });
        assertThat(plan.groupByPodNode()).containsOnlyKeys("steps-fan-out-1456974123", "steps-fan-out-1998373193", "steps-fan-out-3798006587")
                .containsValue("steps-fan-out-196408049-worker");
    }

    @Test
    void aDagFanOutTakesItsQueueAndMinAvailableAndLeavesTheOtherTasksOut() {
        // when
        GangPlan plan = GangPlanner.plan(TestingWorkflows.read("dag-fan-out"), Set.of("argo-gangs"));

        // then
        assertThat(plan.problems()).isEmpty();
        assertThat(plan.podGroups()).singleElement().satisfies(podGroup -> {
            assertThat(podGroup.minMember()).isEqualTo(2);
            assertThat(podGroup.queue()).contains("argo-gangs");
        });
        assertThat(plan.group("dag-fan-out-2271192547")).as("prepare").isEmpty();
        assertThat(plan.group("dag-fan-out-3075465614")).contains("dag-fan-out-3209575842-worker");
        assertThat(plan.listedNodes()).contains("dag-fan-out-2271192547");
    }

    @Test
    void aRetryAttemptJoinsItsTasksGroupAndTheGroupKeepsItsSize() {
        // given
        Workflow workflow = TestingWorkflows.read(TestingWorkflows.withSecondAttempt("dag-fan-out", "dag-fan-out-2222769859",
                "dag-fan-out-1000000001"));

        // when
        GangPlan plan = GangPlanner.plan(workflow, Set.of("argo-gangs"));

        // then
        assertThat(plan.group("dag-fan-out-1000000001")).contains("dag-fan-out-3209575842-worker");
        assertThat(plan.podGroups()).singleElement().satisfies(podGroup -> assertThat(podGroup.minMember()).isEqualTo(2));
    }

    @Test
    void aTemplateWithoutTheGangAnnotationHasNoGroup() {
        // when
        GangPlan plan = GangPlanner.plan(TestingWorkflows.read(TestingWorkflows.withAnnotations("steps-fan-out", "worker", Map.of())),
                Set.of());

        // then
        assertThat(plan.podGroups()).isEmpty();
        assertThat(plan.groupByPodNode()).isEmpty();
        assertThat(plan.problems()).isEmpty();
    }

    @Test
    void aMinAvailableBelowTheFanOutIsTheGroupsMinMember() {
        // when
        GangPlan plan = GangPlanner.plan(TestingWorkflows.read(TestingWorkflows.withAnnotations("steps-fan-out", "worker",
                Map.of(GangAnnotations.GANG, "true", GangAnnotations.MIN_AVAILABLE, "2", GangAnnotations.PRIORITY_CLASS, "high"))), Set.of());

        // then
        assertThat(plan.podGroups()).singleElement().satisfies(podGroup -> {
            assertThat(podGroup.minMember()).isEqualTo(2);
            assertThat(podGroup.priorityClassName()).contains("high");
        });
        assertThat(plan.groupByPodNode()).hasSize(3);
    }

    @Test
    void aGroupAsksForWhatItsMinimumMembersRequest() {
        // given: the worker template requests 3 cpu a pod; the gang's minimum is 2 of its 3 pods
        ObjectNode object = TestingWorkflows.withAnnotations("steps-fan-out", "worker",
                Map.of(GangAnnotations.GANG, "true", GangAnnotations.MIN_AVAILABLE, "2"));

        // when
        GangPlan plan = GangPlanner.plan(TestingWorkflows.read(object), Set.of(), DagPlan.NONE, TemplateReader.read(object).templates());

        // then
        assertThat(plan.podGroups()).singleElement().satisfies(podGroup -> {
            assertThat(podGroup.minResources()).isEqualTo(Resources.of(6000, 0));
            assertThat(PodGroupManifests.toJson(podGroup).path("spec").path("minResources").toString()).isEqualTo("{\"cpu\":\"6\"}");
        });
    }

    @Test
    void aGroupWhoseTemplateIsNotReadAsksForNothing() {
        // when: no templates given (a templateRef's are not in the workflow)
        GangPlan plan = GangPlanner.plan(TestingWorkflows.read("steps-fan-out"), Set.of());

        // then
        assertThat(plan.podGroups()).singleElement().satisfies(podGroup -> {
            assertThat(podGroup.minResources()).isEqualTo(Resources.EMPTY);
            assertThat(PodGroupManifests.toJson(podGroup).path("spec").has("minResources")).isFalse();
        });
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("a min-available that is not a number", Map.of(GangAnnotations.MIN_AVAILABLE, "lots"),
                        "template 'worker': metadata.annotations.muster.dev/min-available: 'lots' is not a number; "
                                + "it runs without gang semantics"),
                Arguments.of("a min-available of zero", Map.of(GangAnnotations.MIN_AVAILABLE, "0"),
                        "template 'worker': metadata.annotations.muster.dev/min-available: '0' is not a positive number; "
                                + "it runs without gang semantics"),
                Arguments.of("a min-available above the fan-out", Map.of(GangAnnotations.MIN_AVAILABLE, "4"),
                        "template 'worker': metadata.annotations.muster.dev/min-available: '4' exceeds the 3 members of fan-out "
                                + "steps-fan-out[0]; it runs without gang semantics"),
                Arguments.of("a queue that does not exist", Map.of(GangAnnotations.QUEUE, "gpu"),
                        "template 'worker': metadata.annotations.muster.dev/queue: queue 'gpu' does not exist; "
                                + "it runs without gang semantics"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void badInputIsAProblemNamingTheTemplateAndFieldAndTheFanOutRunsWithoutAGroup(String description, Map<String, String> annotations,
            String message) {
        // given
        Map<String, String> all = new HashMap<>(annotations);
        all.put(GangAnnotations.GANG, "true");

        // when
        GangPlan plan = GangPlanner.plan(TestingWorkflows.read(TestingWorkflows.withAnnotations("steps-fan-out", "worker", all)),
                Set.of("argo-gangs"));

        // then
        assertThat(plan.problems()).extracting(GangProblem::describe).containsExactly(message);
        assertThat(plan.podGroups()).isEmpty();
        assertThat(plan.groupByPodNode()).isEmpty();
        assertThat(plan.listedNodes()).contains("steps-fan-out-1456974123");
    }

    @Test
    void aGangValueOtherThanTrueOrFalseIsAProblem() {
        // when
        GangPlan plan = GangPlanner.plan(TestingWorkflows.read(TestingWorkflows.withAnnotations("steps-fan-out", "worker",
                Map.of(GangAnnotations.GANG, "yes"))), Set.of());

        // then
        assertThat(plan.problems()).extracting(GangProblem::describe)
                .containsExactly("template 'worker': metadata.annotations.muster.dev/gang: 'yes' is neither \"true\" nor \"false\"; "
                        + "it runs without gang semantics");
        assertThat(plan.podGroups()).isEmpty();
    }

    @Test
    void theDefaultQueueNeedNotExistYet() {
        // when
        GangPlan plan = GangPlanner.plan(TestingWorkflows.read(TestingWorkflows.withAnnotations("steps-fan-out", "worker",
                Map.of(GangAnnotations.GANG, "true", GangAnnotations.QUEUE, "default"))), Set.of());

        // then
        assertThat(plan.problems()).isEmpty();
        assertThat(plan.podGroups()).singleElement().satisfies(podGroup -> assertThat(podGroup.queue()).contains("default"));
    }

    @Test
    void aNameThatIsNoObjectNameOrTooLongIsShortenedWithAHash() {
        // given
        FanOut fanOut = new FanOut("steps-fan-out-196408049", "steps-fan-out[0]", "Train_" + "x".repeat(80),
                ImmutableList.of(new FanOut.Member("a", ImmutableList.of("a"))));

        // when
        String name = GangPlanner.name(fanOut);

        // then
        assertThat(name).hasSizeLessThanOrEqualTo(GangPlanner.MAX_NAME).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")
                .startsWith("steps-fan-out-196408049-train-x");
        assertThat(GangPlanner.name(new FanOut("steps-fan-out-196408049", "g", "Train_" + "x".repeat(79), fanOut.members())))
                .isNotEqualTo(name);
        assertThat(Optional.of(GangPlanner.name(new FanOut("g-1", "g", "worker", fanOut.members())))).contains("g-1-worker");
    }
}
