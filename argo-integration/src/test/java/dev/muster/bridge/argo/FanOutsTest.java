package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import org.junit.jupiter.api.Test;

/** Fan-outs found in the {@code status.nodes} of workflows the real Argo v4.0.5 controller ran. */
class FanOutsTest {
    @Test
    void aStepExpandedByWithItemsIsOneFanOutOfItsPods() {
        // when
        ImmutableList<FanOut> fanOuts = FanOuts.of(TestingWorkflows.read("steps-fan-out"));

        // then
        assertThat(fanOuts).singleElement().satisfies(fanOut -> {
            assertThat(fanOut.groupNodeId()).isEqualTo("steps-fan-out-196408049");
            assertThat(fanOut.groupNodeName()).isEqualTo("steps-fan-out[0]");
            assertThat(fanOut.template()).isEqualTo("worker");
            assertThat(fanOut.podNodeIds())
                    .containsExactly("steps-fan-out-1456974123", "steps-fan-out-1998373193", "steps-fan-out-3798006587");
        });
    }

    @Test
    void aDagTaskExpandedByWithItemsIsOneFanOutOfItsRetriedTasks() {
        // when
        ImmutableList<FanOut> fanOuts = FanOuts.of(TestingWorkflows.read("dag-fan-out"));

        // then: the TaskGroup's members are Retry nodes, each above its one attempt so far; "prepare" is in no group
        assertThat(fanOuts).singleElement().satisfies(fanOut -> {
            assertThat(fanOut.groupNodeId()).isEqualTo("dag-fan-out-3209575842");
            assertThat(fanOut.groupNodeName()).isEqualTo("dag-fan-out.train");
            assertThat(fanOut.members()).containsExactly(
                    new FanOut.Member("dag-fan-out-2222769859", ImmutableList.of("dag-fan-out-3075465614")),
                    new FanOut.Member("dag-fan-out-1541335943", ImmutableList.of("dag-fan-out-2967293498")));
        });
    }

    @Test
    void aSecondAttemptOfARetriedTaskIsAMemberOfTheSameFanOut() {
        // given: the DAG run, with a second attempt under one task's Retry node
        Workflow workflow = TestingWorkflows.read(TestingWorkflows.withSecondAttempt("dag-fan-out", "dag-fan-out-2222769859",
                "dag-fan-out-1000000001"));

        // when
        ImmutableList<FanOut> fanOuts = FanOuts.of(workflow);

        // then
        assertThat(fanOuts).singleElement().satisfies(fanOut -> assertThat(fanOut.members()).hasSize(2)
                .first().isEqualTo(new FanOut.Member("dag-fan-out-2222769859",
                        ImmutableList.of("dag-fan-out-3075465614", "dag-fan-out-1000000001"))));
    }
}
