package dev.muster.sim.workload;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.Resources;
import java.util.Locale;
import java.util.Optional;

/**
 * One gang: {@code pods} identical pods (and, for a PS/worker training job, its parameter servers)
 * that become one PodGroup with {@code minMember} = all of them, and run together for
 * {@code durationMillis} once all of them run (stretched by the parameter servers' communication
 * model when they are given).
 *
 * @param name unique within its job; the node id in the job's graph
 * @param pods the gang's workers (every pod when there are no parameter servers)
 * @param parameterServers the gang's parameter servers, pods {@code 0 .. count-1}; the workers follow
 * @param role the workers' {@code volcano.sh/task-spec}: {@value #WORKER} unless a loader names it
 */
public record GangSpec(String name, int pods, Resources perPod, long durationMillis, Optional<ParameterServers> parameterServers,
        String role) {
    public static final String PARAMETER_SERVER = "ps";
    public static final String WORKER = "worker";

    public GangSpec {
        requireNonNull(name, "name is null");
        checkArgument(pods > 0, "gang %s: pods must be positive: %s", name, pods);
        requireNonNull(perPod, "perPod is null");
        checkArgument(durationMillis > 0, "gang %s: duration must be positive: %s", name, durationMillis);
        requireNonNull(parameterServers, "parameterServers is null");
        requireNonNull(role, "role is null");
        checkArgument(!role.isEmpty(), "gang %s: role is empty", name);
    }

    /** A gang of identical pods. */
    public GangSpec(String name, int pods, Resources perPod, long durationMillis) {
        this(name, pods, perPod, durationMillis, Optional.empty(), WORKER);
    }

    public GangSpec withParameterServers(ParameterServers servers) {
        return new GangSpec(name, pods, perPod, durationMillis, Optional.of(servers), role);
    }

    public GangSpec withRole(String workerRole) {
        return new GangSpec(name, pods, perPod, durationMillis, parameterServers, workerRole);
    }

    /** Every pod of the gang: parameter servers and workers. */
    public int podCount() {
        return pods + parameterServerCount();
    }

    public int parameterServerCount() {
        return parameterServers.map(ParameterServers::count).orElse(0);
    }

    /** The request of pod {@code index} (parameter servers first). */
    public Resources request(int index) {
        return index < parameterServerCount() ? parameterServers.orElseThrow().perPod() : perPod;
    }

    /** The role ({@code volcano.sh/task-spec}) of pod {@code index}: the parameter servers' role or the workers'. */
    public String role(int index) {
        return index < parameterServerCount() ? parameterServers.orElseThrow().role() : role;
    }

    /**
     * The name of pod {@code index}: {@code <gang>-<index>}, or as the training operator names them when there are parameter servers
     * ({@code <gang>-<role>-<index within the role>}, the role in lower case).
     */
    public String podName(int index) {
        if (parameterServers.isEmpty()) {
            return name + "-" + index;
        }
        int servers = parameterServerCount();
        return index < servers
                ? name + "-" + parameterServers.get().role().toLowerCase(Locale.ROOT) + "-" + index
                : name + "-" + role.toLowerCase(Locale.ROOT) + "-" + (index - servers);
    }

    public Resources total() {
        Resources workers = perPod.multiply(pods);
        return parameterServers.map(servers -> workers.add(servers.perPod().multiply(servers.count()))).orElse(workers);
    }

    /** GPUs of the whole gang (not milli-units). */
    public double gpus() {
        return total().get(Resources.GPU) / 1000.0;
    }
}
