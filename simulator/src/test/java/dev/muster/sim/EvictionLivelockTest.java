package dev.muster.sim;

import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.actions.PreemptAction;
import dev.muster.engine.actions.ReclaimAction;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.metrics.RunResult;
import dev.muster.sim.metrics.Summary;
import dev.muster.sim.policy.EnginePolicy;
import dev.muster.sim.policy.SchedulingPolicy;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Preempt and reclaim together, over many cycles of the real engine on the simulated clock, with jobs
 * arriving all along, under issue 18's configuration ({@code examples/simulate/muster-issue18.conf})
 * with Volcano's {@code preempt} added to its actions (no shipped configuration has it).
 *
 * <p>{@link ReclaimCyclingTest} shows reclaim alone giving a share back once. Here two queues of equal
 * weight share two 8-GPU nodes: queue a's low-priority one-GPU jobs of an hour borrow what b leaves
 * idle; a's high-priority two-GPU jobs preempt a's own loans every 40 minutes; b's four-GPU jobs of 30
 * minutes come in bursts that reclaim its share, and between bursts a borrows it again.
 *
 * <p>The protections it shows at work, and what happens without each: preempt's victims are chosen by
 * the first tier alone (priority, gang), because conformance, which the file puts in the second tier for
 * reclaim, does not answer for preempt ({@code enablePreemptable: false}); without that, a tier
 * whose priority plugin allows no victim hands the choice to the next one (Volcano's rule), conformance
 * allows every victim, and jobs of one priority preempt each other every cycle: a livelock. And the
 * minimum loan run time: without it, reclaim takes back the loans that have just started again.
 */
class EvictionLivelockTest {
    private static final Resources GPU = Resources.of(6000, 56.0 * (1L << 30)).withScalar(Resources.GPU, 1000);
    private static final Path ISSUE_18 = Path.of("../examples/simulate/muster-issue18.conf");
    private static final SchedulerConfigLoader LOADER = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
    private static final QueueName A = new QueueName("a");
    private static final QueueName B = new QueueName("b");
    private static final long MINUTE = 60_000;
    private static final int HIGH = 1000;
    /**
     * The most runs any one job may lose with the protections on: a low-priority loan may be preempted by
     * an urgent job and reclaimed by more than one of b's bursts, but not over and over.
     */
    private static final int BOUND = 3;
    private static final String[] WITH_PREEMPT = {"actions: \"enqueue, allocate, reclaim, backfill\"",
        "actions: \"enqueue, allocate, preempt, reclaim, backfill\""};
    private static final String[] CONFORMANCE_ALSO_FOR_PREEMPT = {"  - name: conformance\n    enablePreemptable: false\n",
        "  - name: conformance\n"};
    private static final String[] NO_MIN_LOAN_RUNTIME = {"min-loan-runtime: 10m", "min-loan-runtime: 0s"};

    @Test
    void withIssue18sProtectionsEveryJobFinishesAndNoneIsEvictedOverAndOver() throws IOException {
        // given
        CountingPolicy policy = new CountingPolicy(protectedConfig());

        // when
        Summary summary = Summary.of(run(policy, contention()));

        // then: both actions evicted, nothing livelocked, every job finished, no job lost more than BOUND runs
        assertThat(policy.evictionsByAction()).containsKeys(PreemptAction.NAME, ReclaimAction.NAME);
        assertThat(summary.livelocked()).isFalse();
        assertThat(summary.completed()).isEqualTo(contention().jobs().size());
        assertThat(summary.maxEvictionsPerJob()).isPositive().isLessThanOrEqualTo(BOUND);
    }

    @Test
    void whenConformanceAlsoAnswersForPreemptJobsOfOnePriorityPreemptEachOtherEveryCycle() throws IOException {
        // given: conformance answers for preempt too; once priority, in the first tier, allows no victim,
        // the second tier decides (Volcano's rule), and there conformance allows every one
        CountingPolicy policy = new CountingPolicy(config(WITH_PREEMPT, CONFORMANCE_ALSO_FOR_PREEMPT));

        // when
        Summary summary = Summary.of(run(policy, contention()));

        // then: the simulation stops it as a livelock, with jobs unfinished and one evicted thousands of times
        assertThat(summary.livelocked()).isTrue();
        assertThat(summary.completed()).isLessThan(contention().jobs().size());
        assertThat(summary.maxEvictionsPerJob()).isGreaterThan(100 * BOUND);
    }

    @Test
    void withoutTheMinimumLoanRunTimeTheSameJobsAreReclaimedOverAndOver() throws IOException {
        // given: reclaim may take a loan back the moment it starts
        CountingPolicy withMinimum = new CountingPolicy(protectedConfig());
        CountingPolicy withoutMinimum = new CountingPolicy(config(WITH_PREEMPT, NO_MIN_LOAN_RUNTIME));

        // when
        Summary bounded = Summary.of(run(withMinimum, shortBursts()));
        Summary churning = Summary.of(run(withoutMinimum, shortBursts()));

        // then: reclaim takes the youngest loans, which without the minimum are the jobs it evicted at
        // b's previous arrival and that came back when b's job ended
        assertThat(bounded.completed()).isEqualTo(churning.completed()).isEqualTo(shortBursts().jobs().size());
        assertThat(bounded.maxEvictionsPerJob()).isLessThanOrEqualTo(BOUND);
        assertThat(churning.maxEvictionsPerJob()).isGreaterThan(2 * BOUND);
    }

    private static RunResult run(SchedulingPolicy policy, Workload workload) {
        return new Simulation("issue18+preempt", policy, ClusterSpec.uniform(2, GPU.multiply(8), 16), workload,
                SimulationOptions.DEFAULTS.withStuckAfterMillis(MINUTE), ProgressListener.NONE).run();
    }

    /** issue 18's file with preempt: its victims are chosen by the first tier alone (priority, gang). */
    private static EnginePolicy protectedConfig() throws IOException {
        return config(WITH_PREEMPT);
    }

    /** issue 18's file with each edit applied; every edit must find its text. */
    private static EnginePolicy config(String[]... edits) throws IOException {
        String text = Files.readString(ISSUE_18);
        for (String[] edit : edits) {
            text = replace(text, edit[0], edit[1]);
        }
        return new EnginePolicy(LOADER.parse(ISSUE_18.toString(), text));
    }

    private static String replace(String text, String from, String to) {
        checkState(text.contains(from), "%s no longer has '%s'", ISSUE_18, from);
        return text.replace(from, to);
    }

    private static Workload contention() {
        List<WorkloadJob> jobs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            jobs.add(WorkloadJob.single("a" + i, A, i < 16 ? 0 : (i - 16) * 10 * MINUTE, new GangSpec("main", 1, GPU, 60 * MINUTE)));
        }
        for (int i = 0; i < 6; i++) {
            jobs.add(WorkloadJob.single("urgent" + i, A, 10 * MINUTE + i * 40 * MINUTE, new GangSpec("main", 2, GPU, 20 * MINUTE))
                    .withPriority(HIGH));
        }
        for (int burst = 0; burst < 4; burst++) {
            for (int i = 0; i < 3; i++) {
                long arrival = 15 * MINUTE + burst * 70 * MINUTE + i * 5 * MINUTE;
                jobs.add(WorkloadJob.single("b" + burst + "-" + i, B, arrival, new GangSpec("main", 4, GPU, 30 * MINUTE)));
            }
        }
        jobs.sort((left, right) -> Long.compare(left.arrivalMillis(), right.arrivalMillis()));
        return new Workload("contention", Instant.parse("2026-01-01T00:00:00Z"), ImmutableList.copyOf(jobs),
                ImmutableSortedMap.of(A, 1, B, 1), ImmutableList.of(), 0);
    }

    /** Queue a borrows the whole cluster with hour-long jobs; b's four-GPU jobs of four minutes arrive every five. */
    private static Workload shortBursts() {
        List<WorkloadJob> jobs = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            jobs.add(WorkloadJob.single("a" + i, A, 0, new GangSpec("main", 1, GPU, 60 * MINUTE)));
        }
        for (int i = 0; i < 24; i++) {
            jobs.add(WorkloadJob.single("b" + i, B, 15 * MINUTE + i * 5 * MINUTE, new GangSpec("main", 4, GPU, 4 * MINUTE)));
        }
        return new Workload("short-bursts", Instant.parse("2026-01-01T00:00:00Z"), ImmutableList.copyOf(jobs),
                ImmutableSortedMap.of(A, 1, B, 1), ImmutableList.of(), 0);
    }

    /** The engine's decisions, unchanged, with its evictions counted by the action that chose them. */
    private static final class CountingPolicy implements SchedulingPolicy {
        private final SchedulingPolicy engine;
        private final Map<String, Integer> byAction = new TreeMap<>();

        CountingPolicy(SchedulingPolicy engine) {
            this.engine = requireNonNull(engine, "engine is null");
        }

        @Override
        public SessionResult schedule(ClusterSnapshot snapshot, Clock clock) {
            SessionResult result = engine.schedule(snapshot, clock);
            result.evictions().forEach(eviction -> byAction.merge(eviction.action(), 1, Integer::sum));
            return result;
        }

        Map<String, Integer> evictionsByAction() {
            return byAction;
        }
    }
}
