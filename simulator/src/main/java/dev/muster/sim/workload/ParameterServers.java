package dev.muster.sim.workload;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import java.util.List;

/**
 * The parameter servers of a PS/worker training gang, and the communication model that makes the
 * gang run slower when they sit on other nodes than its workers.
 *
 * <p><b>The model.</b> In TensorFlow's parameter-server training every worker pulls every variable and
 * pushes every gradient each step, and the variables are sharded evenly over the parameter servers, so
 * each (worker, PS) pair carries the same traffic. A pair on one node talks through the host (loopback,
 * shared memory); a pair on two nodes through the network, whose bandwidth is the bottleneck of the
 * step (the bandwidth-bound cost model of Dive into Deep Learning, section "Parameter Servers", and the
 * placement sensitivity Tiresias, NSDI '19, reports for distributed jobs that are not consolidated).
 * With {@code remote} the fraction of pairs on different nodes, the gang runs
 * {@code duration × (1 + crossNodeSlowdown × remote)}: {@code crossNodeSlowdown} is how much longer a
 * gang whose every pair is remote runs than one whose every pair is local. Its value is an assumption
 * of the experiment (it depends on the model's size, the step time and the network), not a measurement.
 *
 * <p>The same shape carries any gang of two roles that talk pair by pair, such as the CN and HN
 * instances of a DLRM serving app ({@link DlrmLoader}): {@code role} names the first role's
 * {@code volcano.sh/task-spec}, and {@code apart} says whether several of them are kept on different
 * nodes (the Kubeflow bridge's anti-affinity for parameter servers).
 *
 * @param count parameter servers of the gang
 * @param perPod the request of one parameter server
 * @param crossNodeSlowdown the relative slowdown when every (worker, PS) pair is on different nodes
 * @param role their {@code volcano.sh/task-spec}
 * @param apart whether two or more of them get a self-anti-affinity
 */
public record ParameterServers(int count, Resources perPod, double crossNodeSlowdown, String role, boolean apart) {
    public ParameterServers {
        checkArgument(count > 0, "parameter servers: count must be positive: %s", count);
        requireNonNull(perPod, "perPod is null");
        checkArgument(crossNodeSlowdown >= 0, "parameter servers: crossNodeSlowdown must not be negative: %s", crossNodeSlowdown);
        requireNonNull(role, "role is null");
        checkArgument(!role.isEmpty(), "parameter servers: role is empty");
    }

    /** TensorFlow's parameter servers: role {@value GangSpec#PARAMETER_SERVER}, kept apart from each other. */
    public ParameterServers(int count, Resources perPod, double crossNodeSlowdown) {
        this(count, perPod, crossNodeSlowdown, GangSpec.PARAMETER_SERVER, true);
    }

    /** The fraction of (worker, PS) pairs on different nodes. */
    public static double remoteFraction(List<NodeName> servers, List<NodeName> workers) {
        requireNonNull(servers, "servers is null");
        requireNonNull(workers, "workers is null");
        if (servers.isEmpty() || workers.isEmpty()) {
            return 0;
        }
        long remote = 0;
        for (NodeName worker : workers) {
            remote += servers.stream().filter(server -> !server.equals(worker)).count();
        }
        return (double) remote / ((long) servers.size() * workers.size());
    }

    /** How long a run of {@code durationMillis} takes with the pods where they are. */
    public long stretch(long durationMillis, List<NodeName> servers, List<NodeName> workers) {
        return Math.max(1, Math.round(durationMillis * (1 + crossNodeSlowdown * remoteFraction(servers, workers))));
    }
}
