package dev.muster.sim.spark;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import java.time.Instant;
import java.util.Optional;

/**
 * One application in a run: where its driver and executors are bound, how many executors Spark has
 * created, whether its tasks run yet, the work left, and what it wasted. Not thread-safe.
 */
final class SparkAppRun {
    static final String NAMESPACE = "spark";
    static final String ROLE_LABEL = "spark-role";
    static final String EXPECTED_EXECUTORS = "muster.dev/spark-expected-executors";
    static final String GANG_EXECUTORS = "muster.dev/spark-gang-executors";

    final SparkAppSpec spec;
    final JobId id;
    NodeName driverNode;
    long driverBoundAt = -1;
    int executorsCreated;
    /** How many executors Spark wants now: the initial ones, raised by dynamic allocation while tasks are backlogged. */
    int executorTarget;
    /** How many executors dynamic allocation adds in its next round (1, 2, 4, ...: Spark's {@code numExecutorsToAdd}). */
    int executorsToAdd = 1;
    final NodeName[] executorNodes;
    final long[] executorBoundAt;
    final long[] executorCreatedAt;
    boolean computing;
    double remainingWork;
    long completedAt = -1;
    PodGroupPhase phase = PodGroupPhase.PENDING;
    long zeroExecutorMillis;
    boolean starved;
    double wastedExecutorMillis;
    double idleDriverMillis;
    private Job cached;

    SparkAppRun(SparkAppSpec spec) {
        this.spec = spec;
        this.id = new JobId(NAMESPACE, spec.name() + "-podgroup");
        this.executorTarget = spec.executors();
        this.executorNodes = new NodeName[spec.maxExecutors()];
        this.executorBoundAt = new long[spec.maxExecutors()];
        this.executorCreatedAt = new long[spec.maxExecutors()];
        this.remainingWork = spec.workExecutorMillis();
    }

    boolean driverBound() {
        return driverNode != null;
    }

    int boundExecutors() {
        int bound = 0;
        for (int i = 0; i < executorsCreated; i++) {
            if (executorNodes[i] != null) {
                bound++;
            }
        }
        return bound;
    }

    int pendingPods() {
        return (driverBound() ? 0 : 1) + executorsCreated - boundExecutors();
    }

    TaskId driverTask() {
        return new TaskId(NAMESPACE, spec.name() + "-driver");
    }

    TaskId executorTask(int index) {
        return new TaskId(NAMESPACE, spec.name() + "-exec-" + (index + 1));
    }

    void changed() {
        cached = null;
    }

    /** The PodGroup and pods as Muster's Spark step and Spark itself create them. */
    Job toJob(Instant epoch, QueueName queue) {
        if (cached != null) {
            return cached;
        }
        Instant created = epoch.plusMillis(spec.arrivalMillis());
        ImmutableList.Builder<Task> tasks = ImmutableList.builder();
        tasks.add(task(driverTask(), spec, "driver", driverNode, driverBoundAt, created, epoch));
        for (int i = 0; i < executorsCreated; i++) {
            tasks.add(task(executorTask(i), spec, "executor", executorNodes[i], executorBoundAt[i], epoch.plusMillis(executorCreatedAt[i]),
                    epoch));
        }
        ImmutableMap<String, String> annotations = ImmutableMap.of(EXPECTED_EXECUTORS, Integer.toString(spec.executors()),
                GANG_EXECUTORS, Integer.toString(spec.gangExecutors()));
        cached = new Job(id, id.toString(), queue, 1, ImmutableMap.of(), Optional.of(spec.minResources()), 0, "", phase, created,
                Optional.empty(), annotations, tasks.build(), ImmutableList.of());
        return cached;
    }

    private Task task(TaskId id, SparkAppSpec spec, String role, NodeName node, long boundAt, Instant created, Instant epoch) {
        boolean placed = node != null;
        return new Task(id, id.toString(), this.id, "", 1, "", role.equals("driver") ? spec.driver() : spec.executor(),
                role.equals("driver") ? spec.driver() : spec.executor(), placed ? TaskStatus.RUNNING : TaskStatus.PENDING,
                Optional.ofNullable(node), created, true, false, false, Placement.ANYWHERE, ImmutableMap.of(ROLE_LABEL, role),
                ImmutableMap.of(), placed ? Optional.of(epoch.plusMillis(boundAt)) : Optional.empty());
    }
}
