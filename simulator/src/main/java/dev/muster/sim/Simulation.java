package dev.muster.sim;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobHistory;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.graph.NodeId;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.metrics.GangRecord;
import dev.muster.sim.metrics.JobRecord;
import dev.muster.sim.metrics.RunResult;
import dev.muster.sim.metrics.Timeline;
import dev.muster.sim.policy.SchedulingPolicy;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;

/**
 * One policy on one workload and cluster: a discrete-event loop on a {@link SimulatedClock}.
 *
 * <p>Events are job arrivals and gang completions. After the events of an instant, a scheduling
 * cycle runs (at most one per {@link SimulationOptions#cycleMillis()}): the policy gets a snapshot
 * of every submitted gang, its binds start pods at once (the simulated kubelet) and its evictions
 * kill pods, which go back to pending. A gang's work advances only while all its pods run: when the
 * last one starts, it finishes {@code duration} later; an eviction loses the run and the gang starts
 * over once whole again. A partly placed gang holds its resources and does nothing, whatever the
 * policy. A cycle runs only while some pod is pending; when it changed something another cycle
 * follows one period later; the run ends when no event is left and the last cycle changed nothing. Gangs of a job graph are submitted when their
 * parents finish. Not thread-safe; single use.
 */
public final class Simulation {
    private record Event(long millis, long sequence, Optional<JobRun> arrival, Optional<GangRun> finish, int generation) {}

    private final String policyName;
    private final SchedulingPolicy policy;
    private final SimulationOptions options;
    private final ProgressListener progress;
    private final SimulatedClock clock;
    private final ClusterState cluster;
    private final Timeline timeline;
    private final List<JobRun> jobs = new ArrayList<>();
    private final List<GangRun> gangs = new ArrayList<>();
    private final List<String> unschedulable = new ArrayList<>();
    private final String measured;
    private final Map<NodeName, String> racks = new HashMap<>();
    private final PriorityQueue<Event> events = new PriorityQueue<>(Comparator.comparingLong(Event::millis).thenComparingLong(Event::sequence));
    private final Instant epoch;
    private JobHistory history = JobHistory.EMPTY;
    private long sequence;
    private int finishedJobs;

    public Simulation(String policyName, SchedulingPolicy policy, ClusterSpec clusterSpec, Workload workload, SimulationOptions options,
            ProgressListener progress) {
        this.policyName = requireNonNull(policyName, "policyName is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.options = requireNonNull(options, "options is null");
        this.progress = requireNonNull(progress, "progress is null");
        this.clock = new SimulatedClock(workload.epoch());
        this.epoch = workload.epoch();
        this.measured = measuredResource(workload);
        this.cluster = new ClusterState(clusterSpec, workload.queueWeights(), workload.epoch(), measured);
        this.timeline = new Timeline(cluster.queueOrder());
        Map<NodeName, ClusterNode> nodes = clusterSpec.nodes();
        nodes.forEach((name, node) -> racks.put(name, node.labels().getOrDefault(ClusterSpec.RACK_LABEL, name.value())));
        Resources total = clusterSpec.total();
        for (WorkloadJob job : workload.jobs()) {
            Optional<String> reason = unschedulableReason(job, nodes, total);
            if (reason.isPresent()) {
                unschedulable.add(job.id() + ": " + reason.get());
                continue;
            }
            JobRun run = new JobRun(job, options.dagHints(), options.estimateHints());
            jobs.add(run);
            events.add(new Event(job.arrivalMillis(), sequence++, Optional.of(run), Optional.empty(), 0));
        }
    }

    /**
     * The jobs a cluster can never run: a pod (of either role) larger than every node, a gang larger than the cluster, or
     * a gang with more pods than the empty cluster holds at once (node pod limits, and what each node
     * fits of the pod's request).
     */
    public static Optional<String> unschedulableReason(WorkloadJob job, Map<NodeName, ClusterNode> nodes, Resources total) {
        for (GangSpec gang : job.gangs()) {
            for (int pod : new int[] {0, gang.podCount() - 1}) {
                Resources request = gang.request(pod);
                if (nodes.values().stream().noneMatch(node -> request.lessEqual(node.allocatable(), Resources.Missing.ZERO))) {
                    return Optional.of("a pod of gang " + gang.name() + " (" + request + ") fits no node");
                }
            }
            if (!gang.total().lessEqual(total, Resources.Missing.ZERO)) {
                return Optional.of("gang " + gang.name() + " needs " + gang.total() + ", more than the whole cluster");
            }
            long room = nodes.values().stream().mapToLong(node -> podsThatFit(node, gang.perPod())).sum();
            if (room < gang.pods()) {
                return Optional.of("gang " + gang.name() + " needs " + gang.pods() + " pods of (" + gang.perPod()
                        + ") at once; the empty cluster holds at most " + room + " (node pod limits and per-node resources)");
            }
        }
        return Optional.empty();
    }

    /** How many pods of {@code perPod} an empty node holds: its pod limit, and each resource the pod asks for. */
    static long podsThatFit(ClusterNode node, Resources perPod) {
        long fit = node.maxPods();
        for (String name : perPod.requestedNames()) {
            fit = Math.min(fit, (long) Math.floor(node.allocatable().get(name) / perPod.get(name) + 1e-9));
        }
        return fit;
    }

    private static String measuredResource(Workload workload) {
        boolean gpu = workload.jobs().stream().flatMap(job -> job.gangs().stream()).anyMatch(gang -> gang.perPod().get(Resources.GPU) > 0);
        return gpu ? Resources.GPU : Resources.CPU;
    }

    public RunResult run() {
        final long none = Long.MAX_VALUE;
        long nextCycle = none;
        long lastCycle = Long.MIN_VALUE / 2;
        long cycles = 0;
        int cyclesWithoutEvent = 0;
        boolean livelocked = false;
        while (!events.isEmpty() || nextCycle != none) {
            long now = Math.min(events.isEmpty() ? none : events.peek().millis(), nextCycle);
            clock.advanceTo(now);
            boolean external = false;
            while (!events.isEmpty() && events.peek().millis() == now) {
                external |= handle(events.poll(), now);
            }
            if (external && cluster.hasPendingPods()) {
                cyclesWithoutEvent = 0;
                nextCycle = Math.min(nextCycle, Math.max(now, lastCycle + options.cycleMillis()));
            }
            if (nextCycle == now) {
                nextCycle = none;
                lastCycle = now;
                cycles++;
                if (cycle(now) && cluster.hasPendingPods()) {
                    if (++cyclesWithoutEvent > options.maxCyclesWithoutEvent()) {
                        livelocked = true;
                        break;
                    }
                    nextCycle = now + options.cycleMillis();
                }
            }
            cluster.record(timeline, now);
            progress.progress(finishedJobs, jobs.size(), now);
        }
        long end = clock.elapsedMillis();
        timeline.integrateTo(end);
        for (GangRun gang : gangs) {
            gang.endOfRun(end, options.stuckAfterMillis());
        }
        return new RunResult(policyName, jobRecords(), gangRecords(), ImmutableList.copyOf(unschedulable), timeline, end, cycles, livelocked,
                measured);
    }

    /** Handles an event; false for a stale completion. */
    private boolean handle(Event event, long now) {
        if (event.arrival().isPresent()) {
            JobRun job = event.arrival().get();
            for (NodeId ready : job.graph.ready()) {
                submit(job, ready, now);
            }
            return true;
        }
        GangRun gang = event.finish().orElseThrow();
        if (gang.generation != event.generation() || gang.finishedAt >= 0) {
            return false;
        }
        gang.finishedAt = now;
        remember(gang, now);
        gang.runStart = -1;
        cluster.finish(gang);
        JobRun job = gang.job;
        job.unfinishedGangs--;
        Set<NodeId> ready = new TreeSet<>(job.graph.markSucceeded(NodeId.of(gang.spec.name())).ready());
        for (NodeId node : ready) {
            submit(job, node, now);
        }
        if (job.unfinishedGangs == 0) {
            job.completedAt = now;
            finishedJobs++;
        }
        return true;
    }

    /**
     * Adds the finished gang to the history later snapshots carry, with its run time measured as it ended
     * and only what its PodGroup said while it waited, as a scheduler that kept its own history would.
     */
    private void remember(GangRun gang, long now) {
        if (options.historyLimit() == 0) {
            return;
        }
        Job job = gang.toJob(epoch);
        history = history.with(FinishedJob.of(job, job.annotations(), epoch.plusMillis(now), Duration.ofMillis(now - gang.runStart)),
                options.historyLimit());
    }

    private void submit(JobRun job, NodeId node, long now) {
        GangRun gang = new GangRun(job, job.gangs.get(node.value()), now);
        gangs.add(gang);
        cluster.submit(gang);
    }

    /** Runs one cycle and applies it; true when it changed anything. */
    private boolean cycle(long now) {
        SessionResult result = policy.schedule(cluster.snapshot().withHistory(history), clock);
        Set<GangRun> touched = new LinkedHashSet<>();
        for (SessionResult.Eviction eviction : result.evictions()) {
            cluster.pod(eviction.task()).filter(pod -> pod.gang().nodes[pod.index()] != null).ifPresent(pod -> {
                GangRun gang = pod.gang();
                int before = gang.bound;
                cluster.unbind(gang, pod.index());
                if (gang.running()) {
                    gang.runStart = -1;
                    gang.generation++;
                    gang.restarts++;
                }
                gang.boundChanged(now, options.stuckAfterMillis(), before);
                touched.add(gang);
            });
        }
        for (Map.Entry<TaskId, NodeName> bind : result.binds().entrySet()) {
            Optional<ClusterState.PodRef> pod = cluster.pod(bind.getKey());
            if (pod.isEmpty() || pod.get().gang().nodes[pod.get().index()] != null || !cluster.hasNode(bind.getValue())) {
                continue;
            }
            GangRun gang = pod.get().gang();
            int before = gang.bound;
            cluster.bind(gang, pod.get().index(), bind.getValue());
            gang.boundAt[pod.get().index()] = now;
            gang.boundChanged(now, options.stuckAfterMillis(), before);
            touched.add(gang);
        }
        boolean changed = !touched.isEmpty();
        for (Map.Entry<JobId, SessionResult.JobOutcome> outcome : result.jobs().entrySet()) {
            Optional<GangRun> gang = cluster.gang(outcome.getKey());
            if (gang.isPresent() && gang.get().phase != outcome.getValue().phase()) {
                changed = true;
                gang.get().setPhase(outcome.getValue().phase());
            }
        }
        for (GangRun gang : touched) {
            if (gang.bound == gang.spec.podCount() && !gang.running()) {
                gang.runStart = now;
                if (gang.firstRunStart < 0) {
                    gang.firstRunStart = now;
                    gang.pairs = gang.rolePairs(racks::get);
                    if (gang.job.firstRunStart < 0) {
                        gang.job.firstRunStart = now;
                    }
                }
                events.add(new Event(now + gang.runMillis(), sequence++, Optional.empty(), Optional.of(gang), gang.generation));
            }
        }
        return changed;
    }

    private ImmutableList<JobRecord> jobRecords() {
        ImmutableList.Builder<JobRecord> records = ImmutableList.builder();
        for (JobRun job : jobs) {
            double gpus = job.spec.gangs().stream().mapToDouble(GangSpec::gpus).max().orElse(0);
            records.add(new JobRecord(job.spec.id(), job.spec.queue(), job.spec.arrivalMillis(), job.firstRunStart, job.completedAt, gpus, job.spec.gpuSeconds()));
        }
        return records.build();
    }

    private ImmutableList<GangRecord> gangRecords() {
        ImmutableList.Builder<GangRecord> records = ImmutableList.builder();
        for (GangRun gang : gangs) {
            records.add(new GangRecord(gang.job.spec.id(), gang.spec.name(), gang.submitted, gang.firstRunStart, gang.finishedAt, gang.restarts,
                    gang.stuck, gang.wastedGpuSeconds, gang.pairs));
        }
        return records.build();
    }
}
