package dev.muster.engine.plugins.proportion;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import org.junit.jupiter.api.Test;

/**
 * Admission within the deserved share ({@code admit-within-deserved}), against Volcano's admission up
 * to the capability. The cluster has 4 cpu; queues a and b weigh the same. b runs 1 cpu and asks for 1
 * more; a asks for 3 single-cpu jobs, created first. Each queue deserves 2 cpu. Overcommit admits while
 * the admitted minimums fit 4 × 1.2 − 1 used = 3.8 cpu.
 */
class ProportionAdmissionTest {
    private static final String CONFIG = """
            actions: "enqueue, allocate"
            tiers:
            - plugins:
              - name: gang
              - name: overcommit
              - name: proportion
                arguments:
                  admit-within-deserved: %s
              - name: predicates
            """;

    private static ClusterSnapshot burstInOneQueue() {
        ClusterScenario.Builder builder = ClusterScenario.builder()
                .node("n1", cpu(4))
                .queue("a", 1)
                .queue("b", 1)
                .job("ns/b-run", "b", 1, cpu(1), 0, PodGroupPhase.RUNNING, 0)
                .running("ns/b-run", "b-run-0", cpu(1), "n1")
                .minResources("ns/b-run", cpu(1));
        for (String job : new String[] {"ns/a1", "ns/a2", "ns/a3"}) {
            builder.job(job, "a", 1, cpu(1), 1, PodGroupPhase.PENDING, 0).minResources(job, cpu(1));
        }
        return builder.job("ns/b-new", "b", 1, cpu(1), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/b-new", cpu(1))
                .build();
    }

    @Test
    void volcanoAdmitsABurstItCannotPlaceAndShutsTheOtherQueueOutWhileACpuIdles() {
        // when
        SessionResult result = TestingScheduler.withConfig(CONFIG.formatted("false")).runOnce(burstInOneQueue());

        // then: a3 is admitted but over a's deserved share; its admission fills the budget, so b-new waits
        assertThat(result.jobs().get(JobId.parse("ns/a3")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
        assertThat(result.jobs().get(JobId.parse("ns/b-new")).phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "a1-0"), new TaskId("ns", "a2-0"));
    }

    @Test
    void withinTheDeservedShareTheBurstWaitsAtAdmissionAndTheClusterFills() {
        // when
        SessionResult result = TestingScheduler.withConfig(CONFIG.formatted("true")).runOnce(burstInOneQueue());

        // then
        assertThat(result.jobs().get(JobId.parse("ns/a3")).phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(result.jobs().get(JobId.parse("ns/a3")).reason()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("not admitted to queue a: minResources (cpu 1, memory 0) would take queue a (weight 1) over its deserved share,"
                        + " counting what it runs and has admitted: cpu 3 > 2"));
        assertThat(result.jobs().get(JobId.parse("ns/b-new")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "a1-0"), new TaskId("ns", "a2-0"), new TaskId("ns", "b-new-0"));
    }

    @Test
    void aPodGroupWhosePodsComeOnlyOnceItIsAdmittedIsAdmitted() {
        // given: a Volcano Job's PodGroup; its controller creates the pods when the PodGroup is Inqueue
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(4))
                .queue("a", 1)
                .job("ns/vcjob", "a", 2, cpu(1), 0, PodGroupPhase.PENDING, 0)
                .minResources("ns/vcjob", cpu(2))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(CONFIG.formatted("true")).runOnce(snapshot);

        // then
        assertThat(result.jobs().get(JobId.parse("ns/vcjob")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
    }
}
