package dev.muster.engine.plugins.drf;

import static dev.muster.engine.plugins.drf.DrfHierarchyTest.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import org.junit.jupiter.api.Test;

class ShareTreeTest {
    private static final double GIGABYTE = 1e9;
    private static final Resources TOTAL = Resources.of(10_000, 10 * GIGABYTE);
    private static final Queue SCI = queue("root-sci", "root/sci", "100/50");
    private static final Queue DEV = queue("root-eng-dev", "root/eng/dev", "100/50/50");
    private static final Queue PROD = queue("root-eng-prod", "root/eng/prod", "100/50/50");

    @Test
    void anInnerNodeRescalesItsChildrenToTheSmallestShare() {
        // given: dev holds 20% of the cpu, prod 10% of the memory
        ShareTree tree = new ShareTree(TOTAL);
        tree.setJob(DEV, "pg21", Resources.of(2000, 0), Resources.of(10_000, 0));
        tree.setJob(PROD, "pg22", Resources.of(0, GIGABYTE), Resources.of(0, 10 * GIGABYTE));

        // when
        tree.recompute(Resources.of(2000, GIGABYTE));

        // then: dev counts as if it held 10% too, so eng holds 1 cpu and 1G, a 10% share
        ShareTree.Node eng = tree.queueNode(queue("eng", "root/eng", "100/50")).orElseThrow();
        assertThat(eng.allocated().milliCpu()).isCloseTo(1000, within(0.001));
        assertThat(eng.allocated().memory()).isCloseTo(GIGABYTE, within(0.001));
        assertThat(eng.share()).isCloseTo(0.1, within(1e-9));
    }

    @Test
    void theQueueWithTheSmallerWeightedShareGoesFirst() {
        // given
        ShareTree tree = new ShareTree(TOTAL);
        tree.setJob(SCI, "pg1", Resources.of(1000, GIGABYTE), Resources.of(10_000, 10 * GIGABYTE));
        tree.setJob(DEV, "pg21", Resources.of(2000, 0), Resources.of(10_000, 0));

        // when
        tree.recompute(Resources.of(3000, GIGABYTE));

        // then
        assertThat(tree.compare(SCI, DEV)).isNegative();
        assertThat(tree.compare(DEV, SCI)).isPositive();
        assertThat(tree.compare(DEV, PROD)).isZero();
    }

    @Test
    void aJobHoldingAllItRequestsIsSaturatedAndGoesLast() {
        // given: dev holds all it asks for, sci much more but not all
        ShareTree tree = new ShareTree(TOTAL);
        tree.setJob(DEV, "pg21", Resources.of(1000, 0), Resources.of(1000, 0));
        tree.setJob(SCI, "pg1", Resources.of(5000, 5 * GIGABYTE), Resources.of(10_000, 10 * GIGABYTE));

        // when
        tree.recompute(Resources.of(6000, 5 * GIGABYTE));

        // then
        assertThat(tree.queueNode(DEV).orElseThrow().saturated()).isTrue();
        assertThat(tree.compare(SCI, DEV)).isNegative();
    }

    @Test
    void aJobWantingAnExhaustedResourceIsSaturated() {
        // given: all the cpu is taken
        ShareTree tree = new ShareTree(TOTAL);
        tree.setJob(DEV, "pg21", Resources.of(5000, 0), Resources.of(10_000, 0));
        tree.setJob(PROD, "pg22", Resources.of(0, GIGABYTE), Resources.of(0, 10 * GIGABYTE));

        // when
        tree.recompute(Resources.of(10_000, GIGABYTE));

        // then
        assertThat(tree.queueNode(DEV).orElseThrow().saturated()).isTrue();
        assertThat(tree.queueNode(PROD).orElseThrow().saturated()).isFalse();
    }

    @Test
    void aCopyIsIndependentOfItsOriginal() {
        // given
        ShareTree tree = new ShareTree(TOTAL);
        tree.setJob(DEV, "pg21", Resources.of(1000, 0), Resources.of(10_000, 0));
        tree.recompute(Resources.of(1000, 0));

        // when
        ShareTree copy = tree.copy();
        copy.setJob(DEV, "pg21", Resources.of(4000, 0), Resources.of(10_000, 0));
        copy.recompute(Resources.of(4000, 0));

        // then
        assertThat(tree.queueNode(DEV).orElseThrow().share()).isCloseTo(0.1, within(1e-9));
        assertThat(copy.queueNode(DEV).orElseThrow().share()).isCloseTo(0.4, within(1e-9));
    }
}
