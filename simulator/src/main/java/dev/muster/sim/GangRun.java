package dev.muster.sim;

import static dev.muster.engine.plugins.tasktopology.TaskTopology.AFFINITY;
import static dev.muster.engine.plugins.tasktopology.TaskTopology.ANTI_AFFINITY;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import dev.muster.sim.metrics.RolePairs;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.ParameterServers;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One submitted gang in a run: its pods and where they run, whether the whole gang runs (and
 * since when), the PodGroup phase the policy gave it, and the time it held GPUs while only partly
 * placed. Not thread-safe.
 */
final class GangRun {
    final JobRun job;
    final GangSpec spec;
    final JobId id;
    final long submitted;
    final TaskId[] tasks;
    final NodeName[] nodes;
    /** When each pod was bound, as a kubelet reports {@code status.startTime}; meaningful while it is placed. */
    final long[] boundAt;
    int bound;
    /** When the whole gang started running this time; -1 while it does not run. */
    long runStart = -1;
    long firstRunStart = -1;
    long finishedAt = -1;
    /** Bumped when a run is interrupted, so the finish event of the lost run is ignored. */
    int generation;
    int restarts;
    PodGroupPhase phase = PodGroupPhase.PENDING;
    /** When the gang became partly placed; -1 when it is not. */
    long partialSince = -1;
    private long partialChangedAt;
    double wastedGpuSeconds;
    boolean stuck;
    /** Where its two roles sat when it first ran whole. */
    RolePairs pairs = RolePairs.NONE;
    private Job cached;
    private final ImmutableMap<String, String> annotations;

    GangRun(JobRun job, GangSpec spec, long submitted) {
        this.job = job;
        this.spec = spec;
        this.id = new JobId(job.spec.id(), spec.name());
        this.submitted = submitted;
        this.tasks = new TaskId[spec.podCount()];
        this.nodes = new NodeName[spec.podCount()];
        this.boundAt = new long[spec.podCount()];
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = new TaskId(job.spec.id(), spec.podName(i));
        }
        this.annotations = withTaskTopology(job.annotations.getOrDefault(spec.name(), ImmutableMap.of()), spec);
    }

    boolean running() {
        return runStart >= 0;
    }

    /** Records a change of the bound pod count: the waste of the partial placement so far, and whether it is stuck. */
    void boundChanged(long now, long stuckAfterMillis, int previous) {
        closePartial(now, previous, stuckAfterMillis);
        if (bound > 0 && bound < spec.podCount()) {
            if (partialSince < 0) {
                partialSince = now;
            }
        } else {
            partialSince = -1;
        }
        cached = null;
    }

    /** Closes the accounting at the end of the run; a gang still partly placed then never completes, so it is stuck. */
    void endOfRun(long now, long stuckAfterMillis) {
        if (partialSince >= 0) {
            closePartial(now, bound, stuckAfterMillis);
            stuck = true;
        }
    }

    private void closePartial(long now, int previouslyBound, long stuckAfterMillis) {
        if (partialSince >= 0) {
            // parameter servers hold no GPU, so a partly placed gang wastes at most its bound workers' GPUs
            wastedGpuSeconds += Math.min(previouslyBound, spec.pods()) * spec.perPod().get(Resources.GPU) / 1000.0
                    * (now - Math.max(partialChangedAt, partialSince)) / 1000.0;
            if (now - partialSince > stuckAfterMillis) {
                stuck = true;
            }
        }
        partialChangedAt = now;
    }

    void setPhase(PodGroupPhase newPhase) {
        if (newPhase != phase) {
            phase = newPhase;
            cached = null;
        }
    }

    /** The PodGroup and its pods as the policy sees them this cycle. */
    Job toJob(Instant epoch) {
        if (cached == null) {
            Instant created = epoch.plusMillis(submitted);
            ImmutableList.Builder<Task> builder = ImmutableList.builderWithExpectedSize(tasks.length);
            for (int i = 0; i < tasks.length; i++) {
                boolean placed = nodes[i] != null;
                builder.add(new Task(tasks[i], tasks[i].toString(), id, spec.role(i), 1, "", spec.request(i), spec.request(i),
                        placed ? TaskStatus.RUNNING : TaskStatus.PENDING, Optional.ofNullable(nodes[i]), created, true, false, false,
                        Placement.ANYWHERE, ImmutableMap.of(), ImmutableMap.of(),
                        placed ? Optional.of(epoch.plusMillis(boundAt[i])) : Optional.empty()));
            }
            cached = new Job(id, id.toString(), job.spec.queue(), spec.podCount(), ImmutableMap.of(), Optional.of(spec.total()), job.spec.priority(), "",
                    phase, created, Optional.empty(), annotations, builder.build(), ImmutableList.of());
        }
        return cached;
    }

    /** Where the two roles' pods sit now, by node and by rack ({@link RolePairs#NONE} for a gang of one role). */
    RolePairs rolePairs(Function<NodeName, String> rack) {
        if (spec.parameterServers().isEmpty()) {
            return RolePairs.NONE;
        }
        List<NodeName> placed = Arrays.asList(nodes);
        int servers = spec.parameterServerCount();
        return RolePairs.count(placed.subList(0, servers), placed.subList(servers, nodes.length), rack);
    }

    /**
     * How long this run takes with the pods where they are now: the gang's duration, stretched by its
     * parameter servers' communication model when it has them.
     */
    long runMillis() {
        if (spec.parameterServers().isEmpty()) {
            return spec.durationMillis();
        }
        int servers = spec.parameterServerCount();
        List<NodeName> placed = Arrays.asList(nodes);
        return spec.parameterServers().get().stretch(spec.durationMillis(), placed.subList(0, servers), placed.subList(servers, nodes.length));
    }

    /**
     * The PodGroup annotations, with the task topology the Kubeflow bridge gives a PS/worker TFJob whose user
     * gave none (each PS with workers; several PS apart from each other when they are to be apart; a DLRM
     * app's CN with its HN likewise, without the anti-affinity); plugins other than
     * {@code task-topology} ignore them.
     */
    private static ImmutableMap<String, String> withTaskTopology(ImmutableMap<String, String> annotations, GangSpec spec) {
        if (spec.parameterServers().isEmpty() || annotations.containsKey(AFFINITY)) {
            return annotations;
        }
        ParameterServers servers = spec.parameterServers().get();
        ImmutableMap.Builder<String, String> builder = ImmutableMap.<String, String>builder().putAll(annotations)
                .put(AFFINITY, servers.role() + "," + spec.role());
        if (servers.apart() && servers.count() > 1) {
            builder.put(ANTI_AFFINITY, servers.role());
        }
        return builder.buildKeepingLast();
    }
}
