package dev.muster.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.QueueName;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTest {
    @Test
    void percentilesAreNearestRank() {
        double[] values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

        assertThat(Summary.percentile(values, 0.50)).isEqualTo(5);
        assertThat(Summary.percentile(values, 0.95)).isEqualTo(10);
        assertThat(Summary.percentile(new double[] {3}, 0.99)).isEqualTo(3);
        assertThat(Summary.percentile(new double[0], 0.5)).isZero();
    }

    @Test
    void jainIsOneForEqualFractionsOfTheDeservedShareAndOneHalfWhenOneOfTwoQueuesIsStarved() {
        Timeline equal = new Timeline(List.of(new QueueName("a"), new QueueName("b")));
        equal.record(0, 0, 0, new double[] {0.25, 0.5}, new double[] {0.5, 1.0});
        equal.integrateTo(10_000);
        assertThat(Summary.jain(equal)).isEqualTo(1.0);

        Timeline starved = new Timeline(List.of(new QueueName("a"), new QueueName("b")));
        starved.record(0, 0, 0, new double[] {0.5, 0}, new double[] {0.5, 0.5});
        starved.integrateTo(10_000);
        assertThat(Summary.jain(starved)).isEqualTo(0.5);
    }

    @Test
    void allocationIsAveragedOverTime() {
        Timeline timeline = new Timeline(List.of());
        timeline.record(0, 1.0, 0.5, new double[0], new double[0]);
        timeline.record(30_000, 0.0, 0.0, new double[0], new double[0]);
        timeline.integrateTo(100_000);

        assertThat(timeline.averageGpu()).isCloseTo(0.3, within(1e-9));
        assertThat(timeline.averageCpu()).isCloseTo(0.15, within(1e-9));
    }

    @Test
    void evictionsPerJobAreOverEveryJobWithTheirP99AndMaxNextToTheTotal() {
        // given: 100 jobs; x lost one run in each of its two gangs, y lost five, the others none
        List<JobRecord> jobs = new ArrayList<>();
        List<GangRecord> gangs = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String id = i == 0 ? "x" : i == 1 ? "y" : "job-" + i;
            jobs.add(new JobRecord(id, new QueueName("a"), 0, 0, 1_000, 1, 1));
            gangs.add(new GangRecord(id, "main", 0, 0, 1_000, i == 0 ? 1 : i == 1 ? 5 : 0, false, 0));
        }
        gangs.add(new GangRecord("x", "second", 0, 0, 1_000, 1, false, 0));
        Timeline timeline = new Timeline(List.of());
        timeline.integrateTo(1_000);
        RunResult run = new RunResult("muster", ImmutableList.copyOf(jobs), ImmutableList.copyOf(gangs), ImmutableList.of(), timeline, 1_000, 1,
                false, "nvidia.com/gpu");

        // when
        Summary summary = Summary.of(run);

        // then: the 99th of 100 sorted counts is x's 2
        assertThat(summary.evictions()).isEqualTo(7);
        assertThat(summary.p99EvictionsPerJob()).isEqualTo(2);
        assertThat(summary.maxEvictionsPerJob()).isEqualTo(5);
    }
}
