package dev.muster.sim.spark;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.sim.SimulatedClock;
import dev.muster.sim.policy.SchedulingPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Spark applications on a simulated cluster, one second at a time, under one policy. Each second: the
 * applications whose tasks run progress by their bound executors (the work is linear in executors);
 * applications arrive (their driver pod is created); drivers past their start-up delay create executor
 * pods, {@value #BATCH} a second (Spark's {@code spark.kubernetes.allocation.batch.size} and
 * {@code .batch.delay}); with dynamic allocation, once its tasks run, an application raises the executors
 * it asks for by 1, 2, 4, ... a second up to its maximum, as Spark does while tasks are backlogged;
 * then, while a pod is pending, a scheduling cycle runs and its binds take effect.
 * An application's tasks start once {@value #REGISTERED_RATIO} of its executors are bound, or
 * {@value #REGISTERED_WAIT_MILLIS} ms after it asked for them with at least one bound (Spark's
 * {@code spark.scheduler.minRegisteredResourcesRatio}, 0.8 on Kubernetes, and
 * {@code .maxRegisteredResourcesWaitingTime}, 30 s). A finished application frees its pods. The run ends
 * when every application finished, or when nothing changed for {@link #STALL_MILLIS}: the applications
 * left are deadlocked. Not thread-safe; single use.
 */
public final class SparkSimulation {
    static final int BATCH = 5;
    static final double REGISTERED_RATIO = 0.8;
    static final long REGISTERED_WAIT_MILLIS = 30_000;
    static final long STEP_MILLIS = 1_000;
    /** No bind, completion, arrival, executor creation or progress for this long: nothing will change any more. */
    static final long STALL_MILLIS = 30 * 60_000;

    private static final QueueName QUEUE = new QueueName("default");

    private final SchedulingPolicy policy;
    private final ImmutableSortedMap<NodeName, ClusterNode> nodes;
    private final ImmutableSortedMap<QueueName, Queue> queues;
    private final List<SparkAppRun> apps = new ArrayList<>();
    private final Map<TaskId, Integer> executorIndex = new HashMap<>();
    private final Map<TaskId, SparkAppRun> byTask = new HashMap<>();
    private final Map<JobId, SparkAppRun> byJob = new HashMap<>();
    private final SimulatedClock clock;
    private final long starvedAfterMillis;

    public SparkSimulation(SchedulingPolicy policy, ImmutableSortedMap<NodeName, ClusterNode> nodes, List<SparkAppSpec> workload,
            Instant epoch, long starvedAfterMillis) {
        this.policy = requireNonNull(policy, "policy is null");
        this.nodes = requireNonNull(nodes, "nodes is null");
        this.clock = new SimulatedClock(requireNonNull(epoch, "epoch is null"));
        this.starvedAfterMillis = starvedAfterMillis;
        this.queues = ImmutableSortedMap.of(QUEUE, new Queue(QUEUE, QUEUE.value(), 1, Optional.empty(), Resources.EMPTY, Optional.empty(),
                Optional.empty(), 0, true, QueueState.OPEN, epoch, ImmutableMap.of()));
        for (SparkAppSpec spec : workload) {
            SparkAppRun app = new SparkAppRun(spec);
            apps.add(app);
            byJob.put(app.id, app);
            byTask.put(app.driverTask(), app);
            for (int i = 0; i < spec.maxExecutors(); i++) {
                executorIndex.put(app.executorTask(i), i);
                byTask.put(app.executorTask(i), app);
            }
        }
    }

    public SparkRunResult run() {
        long now = 0;
        long lastChange = 0;
        int unfinished = apps.size();
        while (unfinished > 0 && now - lastChange <= STALL_MILLIS) {
            now += STEP_MILLIS;
            clock.advanceTo(now);
            boolean changed = false;
            for (SparkAppRun app : apps) {
                if (app.completedAt < 0 && app.spec.arrivalMillis() < now) {
                    changed |= advance(app, now);
                    if (app.completedAt >= 0) {
                        unfinished--;
                    }
                }
            }
            int pending = 0;
            for (SparkAppRun app : apps) {
                if (app.completedAt < 0 && app.spec.arrivalMillis() <= now) {
                    pending += app.pendingPods();
                    changed |= app.spec.arrivalMillis() > now - STEP_MILLIS;
                }
            }
            if (pending > 0) {
                changed |= cycle(now);
            }
            if (changed) {
                lastChange = now;
            }
        }
        return SparkRunResult.of(apps, now);
    }

    /** One second of an application: progress, waste, executor creation; true when anything changed. */
    private boolean advance(SparkAppRun app, long now) {
        if (!app.driverBound()) {
            return false;
        }
        int bound = app.boundExecutors();
        boolean changed = false;
        if (app.computing) {
            app.remainingWork -= bound * (double) STEP_MILLIS;
            changed = bound > 0;
        } else {
            app.wastedExecutorMillis += bound * (double) STEP_MILLIS;
            app.idleDriverMillis += STEP_MILLIS;
        }
        app.zeroExecutorMillis = bound == 0 ? app.zeroExecutorMillis + STEP_MILLIS : 0;
        if (app.zeroExecutorMillis > starvedAfterMillis) {
            app.starved = true;
        }
        if (app.computing && app.remainingWork <= 0) {
            app.completedAt = now;
            app.phase = PodGroupPhase.COMPLETED;
            return true;
        }
        long askedAt = app.driverBoundAt + app.spec.startupMillis();
        if (app.computing && app.executorTarget < app.spec.maxExecutors()) {
            // dynamic allocation: tasks stay backlogged (the work is divisible), so every round of
            // schedulerBacklogTimeout / sustainedSchedulerBacklogTimeout (1 s each) Spark raises its target by
            // 1, 2, 4, ... executors up to maxExecutors
            app.executorTarget = Math.min(app.spec.maxExecutors(), app.executorTarget + app.executorsToAdd);
            app.executorsToAdd *= 2;
        }
        if (now >= askedAt && app.executorsCreated < app.executorTarget) {
            int batch = Math.min(BATCH, app.executorTarget - app.executorsCreated);
            for (int i = 0; i < batch; i++) {
                app.executorCreatedAt[app.executorsCreated++] = now;
            }
            app.changed();
            changed = true;
        }
        if (!app.computing && bound > 0
                && (bound >= Math.ceil(REGISTERED_RATIO * app.spec.executors()) || now >= askedAt + REGISTERED_WAIT_MILLIS)) {
            app.computing = true;
            changed = true;
        }
        return changed;
    }

    private boolean cycle(long now) {
        ImmutableSortedMap.Builder<JobId, Job> jobs = ImmutableSortedMap.naturalOrder();
        for (SparkAppRun app : apps) {
            if (app.completedAt < 0 && app.spec.arrivalMillis() <= now) {
                jobs.put(app.id, app.toJob(clock.epoch(), QUEUE));
            }
        }
        ClusterSnapshot snapshot = new ClusterSnapshot(nodes, jobs.build(), queues, ImmutableList.of(), ImmutableMap.of(), ImmutableList.of());
        SessionResult result = policy.schedule(snapshot, clock);
        boolean changed = false;
        for (Map.Entry<TaskId, NodeName> bind : result.binds().entrySet()) {
            SparkAppRun app = byTask.get(bind.getKey());
            if (app == null || app.completedAt >= 0) {
                continue;
            }
            Integer index = executorIndex.get(bind.getKey());
            if (index == null) {
                if (!app.driverBound()) {
                    app.driverNode = bind.getValue();
                    app.driverBoundAt = now;
                    changed = true;
                }
            } else if (index < app.executorsCreated && app.executorNodes[index] == null) {
                app.executorNodes[index] = bind.getValue();
                app.executorBoundAt[index] = now;
                changed = true;
            }
            app.changed();
        }
        for (Map.Entry<JobId, SessionResult.JobOutcome> outcome : result.jobs().entrySet()) {
            SparkAppRun app = byJob.get(outcome.getKey());
            if (app != null && app.phase != outcome.getValue().phase()) {
                app.phase = outcome.getValue().phase();
                app.changed();
            }
        }
        return changed;
    }
}
