package dev.muster.sim.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import dev.muster.sim.cluster.ClusterSpec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BaselinePolicyTest {
    private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
    private static final Resources CORE = Resources.of(1000, 1L << 30);

    @Test
    void aHigherPriorityPodTakesTheLastRoomBeforeAnOlderOne() {
        // given: one node with room for one pod
        ClusterSnapshot snapshot = snapshot(1, CORE, pod("old", 0, 0, CORE), pod("urgent", 1, 50, CORE));

        // when
        SessionResult result = new BaselinePolicy(1).schedule(snapshot, at(100));

        // then
        assertThat(result.binds()).containsOnlyKeys(id("urgent"));
    }

    @Test
    void aPodThatFitNowhereGoesBackToTheQueueBehindPodsCreatedBeforeItFailed() {
        // given: "a" (created at 0) fails alone at 100; "c" (created at 50) then competes for one pod's room
        BaselinePolicy policy = new BaselinePolicy(1);
        policy.schedule(snapshot(1, Resources.EMPTY, pod("a", 0, 0, CORE)), at(100));

        // when
        SessionResult result = policy.schedule(snapshot(1, CORE, pod("a", 0, 0, CORE), pod("c", 0, 50, CORE)), at(200));

        // then: without the new timestamp "a", created first, would win
        assertThat(result.binds()).containsOnlyKeys(id("c"));
    }

    @Test
    void aPodThatFitsNowhereDoesNotHoldBackSmallerPodsBehindIt() {
        // given: a 3-core pod first in line, then two 2-core pods and a 1-core pod, on one 3-core node with 1 core used
        Resources threeCores = CORE.multiply(3);
        Resources twoCores = CORE.multiply(2);
        Task running = pod("running", 0, 0, CORE).withStatus(TaskStatus.RUNNING, Optional.of(new NodeName("node-000")));
        ClusterSnapshot snapshot = snapshot(1, threeCores, running, pod("big", 0, 1, threeCores), pod("middle", 0, 2, twoCores),
                pod("middle2", 0, 3, twoCores), pod("small", 0, 4, CORE));

        // when
        SessionResult result = new BaselinePolicy(1).schedule(snapshot, at(100));

        // then: "middle" takes the 2 free cores; neither "middle2" nor "small" fits after it
        assertThat(result.binds()).containsOnlyKeys(id("middle"));
    }

    @Test
    void aSmallerPodFitsWhereALargerOneFailed() {
        // given: 2 free cores; a 3-core pod is first in line
        ClusterSnapshot snapshot = snapshot(1, CORE.multiply(2), pod("big", 0, 0, CORE.multiply(3)), pod("small", 0, 1, CORE));

        // when
        SessionResult result = new BaselinePolicy(1).schedule(snapshot, at(100));

        // then
        assertThat(result.binds()).containsOnlyKeys(id("small"));
    }

    @Test
    void podsSpreadToTheLeastAllocatedNode() {
        // given: two empty 4-core nodes
        ClusterSnapshot snapshot = snapshot(2, CORE.multiply(4), pod("p0", 0, 0, CORE), pod("p1", 0, 1, CORE));

        // when
        SessionResult result = new BaselinePolicy(1).schedule(snapshot, at(100));

        // then
        assertThat(result.binds().values()).containsExactlyInAnyOrder(new NodeName("node-000"), new NodeName("node-001"));
    }

    @Test
    void theSameSeedGivesTheSameBindsCycleAfterCycle() {
        List<SessionResult> first = threeCycles(new BaselinePolicy(7));
        List<SessionResult> second = threeCycles(new BaselinePolicy(7));

        assertThat(second).isEqualTo(first);
    }

    private static List<SessionResult> threeCycles(BaselinePolicy policy) {
        List<Task> pods = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            pods.add(pod("p" + i, i % 2, i, CORE.multiply(1 + i % 3)));
        }
        List<SessionResult> results = new ArrayList<>();
        for (int cycle = 1; cycle <= 3; cycle++) {
            results.add(policy.schedule(snapshot(8, CORE.multiply(4 * cycle), pods.toArray(Task[]::new)), at(100 * cycle)));
        }
        return results;
    }

    private static TaskId id(String name) {
        return new TaskId("ns", name + "-0");
    }

    private static Task pod(String name, int priority, long createdSeconds, Resources request) {
        JobId job = new JobId("ns", name);
        return new Task(id(name), name, job, "worker", priority, "", request, request, TaskStatus.PENDING, Optional.empty(),
                EPOCH.plusSeconds(createdSeconds), true, false, false, Placement.ANYWHERE, ImmutableMap.of(), ImmutableMap.of());
    }

    /** One single-pod job per task, on {@code nodes} identical nodes. */
    private static ClusterSnapshot snapshot(int nodes, Resources perNode, Task... tasks) {
        ImmutableSortedMap.Builder<JobId, Job> jobs = ImmutableSortedMap.naturalOrder();
        for (Task task : tasks) {
            jobs.put(task.job(), new Job(task.job(), task.job().toString(), Queue.DEFAULT, 1, ImmutableMap.of(), Optional.empty(), task.priority(),
                    "", PodGroupPhase.PENDING, task.created(), Optional.empty(), ImmutableMap.of(), ImmutableList.of(task), ImmutableList.of()));
        }
        return new ClusterSnapshot(ClusterSpec.uniform(nodes, perNode, 1).nodes(), jobs.build(), ImmutableSortedMap.of(), ImmutableList.of(),
                ImmutableMap.of(), ImmutableList.of());
    }

    private static Clock at(long seconds) {
        return Clock.fixed(EPOCH.plusSeconds(seconds), ZoneOffset.UTC);
    }
}
