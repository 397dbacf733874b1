package dev.muster.sim;

import static dev.muster.sim.SimulationTest.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.Resources;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.policy.PolicySpec;
import dev.muster.sim.policy.SchedulingPolicy;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.Workload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The history each cycle's snapshot carries: the gangs that finished before it, with their measured run times, and nothing else. */
class SimulationHistoryTest {
    private static final SchedulerConfigLoader LOADER = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
    private static final Resources GPU = Resources.of(6000, 56.0 * (1L << 30)).withScalar(Resources.GPU, 1000);
    private static final ClusterSpec ONE_NODE_TWO_GPUS = ClusterSpec.uniform(1, GPU.multiply(2), 16);
    private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

    /** The snapshots a policy was given, and when. */
    private record Cycle(Instant now, ClusterSnapshot snapshot) {}

    /** Muster's default policy, remembering every snapshot. */
    private static final class RecordingPolicy implements SchedulingPolicy {
        private final SchedulingPolicy delegate = PolicySpec.parse("muster", LOADER).newInstance(1);
        private final List<Cycle> cycles = new ArrayList<>();

        @Override
        public SessionResult schedule(ClusterSnapshot snapshot, Clock clock) {
            cycles.add(new Cycle(clock.instant(), snapshot));
            return delegate.schedule(snapshot, clock);
        }
    }

    /** Long (100 s) and short (50 s) start at 0 on the two GPUs; late (1 GPU, 10 s) arrives at 300 s; waiting (2 GPUs) at 10 s. */
    private static Workload workload() {
        return SimulationTest.workload(
                job("long", 0, new GangSpec("main", 1, GPU, 100_000)),
                job("short", 0, new GangSpec("main", 1, GPU, 50_000)),
                job("waiting", 10_000, new GangSpec("main", 1, GPU.multiply(2), 20_000)),
                job("late", 300_000, new GangSpec("main", 1, GPU, 10_000)));
    }

    private static List<Cycle> run(int historyLimit) {
        RecordingPolicy policy = new RecordingPolicy();
        new Simulation("muster", policy, ONE_NODE_TWO_GPUS, workload(), SimulationOptions.DEFAULTS.withHistoryLimit(historyLimit),
                ProgressListener.NONE).run();
        return policy.cycles;
    }

    @Test
    void aCycleSeesTheGangsThatFinishedBeforeItWithTheirRunTimes() {
        // when
        List<Cycle> cycles = run(1000);

        // then: when late arrives, short (50 s), long (100 s) and waiting (20 s, from 100 s to 120 s) have finished, in that order
        Cycle last = cycles.get(cycles.size() - 1);
        assertThat(last.now()).isEqualTo(EPOCH.plusSeconds(300));
        assertThat(last.snapshot().history().jobs()).extracting(FinishedJob::id, FinishedJob::run, FinishedJob::finished).containsExactly(
                tuple(new JobId("short", "main"), Duration.ofSeconds(50), EPOCH.plusSeconds(50)),
                tuple(new JobId("long", "main"), Duration.ofSeconds(100), EPOCH.plusSeconds(100)),
                tuple(new JobId("waiting", "main"), Duration.ofSeconds(20), EPOCH.plusSeconds(120)));
        assertThat(last.snapshot().history().jobs().get(2).requested().get(Resources.GPU)).isEqualTo(2000);
    }

    @Test
    void noJobIsInTheHistoryBeforeItHasFinished() {
        // when
        List<Cycle> cycles = run(1000);

        // then: a job the cycle schedules is never in its history, and what is there finished before the cycle
        assertThat(cycles).isNotEmpty().allSatisfy(cycle -> {
            assertThat(cycle.snapshot().history().jobs()).allSatisfy(finished -> {
                assertThat(finished.finished()).isBeforeOrEqualTo(cycle.now());
                assertThat(cycle.snapshot().jobs()).doesNotContainKey(finished.id());
            });
        });
        assertThat(cycles.get(0).snapshot().history().isEmpty()).isTrue();
    }

    @Test
    void theHistoryKeepsTheMostRecentUpToItsLimit() {
        // when
        List<Cycle> cycles = run(1);

        // then
        assertThat(cycles.get(cycles.size() - 1).snapshot().history().jobs()).extracting(FinishedJob::id)
                .containsExactly(new JobId("waiting", "main"));
    }

    @Test
    void withoutALimitNoHistoryIsKept() {
        // when
        List<Cycle> cycles = run(0);

        // then
        assertThat(cycles).allSatisfy(cycle -> assertThat(cycle.snapshot().history().isEmpty()).isTrue());
    }
}
