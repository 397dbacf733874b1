package dev.muster.sim.workload;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.cluster.NodePool;
import dev.muster.sim.workload.CsvFile.Row;
import dev.muster.sim.workload.CsvFile.RowException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads Alibaba's GPU-disaggregated DLRM serving trace ({@code disaggregated_DLRM_trace.csv} of
 * cluster-trace-gpu-v2025, Prism, NSDI '25): one row per instance of a serving app, of role
 * {@code CN} (CPU-heavy) or {@code HN} (one GPU), with creation and deletion times in seconds from the
 * trace's start.
 *
 * <p>The mapping (the trace is serving, not batch: what it measures is placement and admission, not JCT):
 * <ul>
 *   <li>the instances of an app created at the same second are one job of one gang, {@code APP@SECOND},
 *       arriving then; the instances that already existed at the trace's start (no creation time) arrive at
 *       0 with those created at second 0;</li>
 *   <li>a gang with both roles has its CN as the first role ({@code volcano.sh/task-spec: CN}) and its HN as
 *       the second ({@code HN}), and the PodGroup asks task-topology to keep them together
 *       ({@code volcano.sh/task-topology-affinity: CN,HN}); a gang of one role has no topology;</li>
 *   <li>the gang runs from arrival until its last instance is deleted, or until the end of the window
 *       (the latest time in the file) for instances never deleted: an instance deleted earlier keeps its
 *       place until then, as a gang cannot shrink;</li>
 *   <li>requests: {@code cpu_request} cores, {@code memory_request} GiB, {@code gpu_request} as
 *       {@code nvidia.com/gpu}, {@code rdma_request} (percent of a NIC) as {@value #RDMA}; disk is left out.
 *       Instances of a role in one gang whose requests differ get the largest of each;</li>
 *   <li>{@code max_instance_per_node} is read and checked but not enforced: the engine has no inter-pod
 *       anti-affinity or topology spread to express a per-node cap with;</li>
 *   <li>every job is in the queue {@value #QUEUE}; there is no slowdown model (a serving instance's
 *       lifetime does not depend on where it runs).</li>
 * </ul>
 * A row that cannot be used is skipped and reported with its line, column and value.
 */
public final class DlrmLoader {
    /** The extended resource of an RDMA NIC's bandwidth, in percent: a node with one NIC has 100. */
    public static final String RDMA = "rdma/nic-share";
    public static final String QUEUE = "dlrm";
    public static final String CN = "CN";
    public static final String HN = "HN";
    private static final double GIB = 1L << 30;

    private DlrmLoader() {}

    /**
     * 36 racks, each of 20 CPU nodes ({@code cn}: 192 cores, 1,536 GiB, one NIC) and 8 GPU nodes
     * ({@code hn}: 4 GPUs, 96 cores, 768 GiB, one NIC), sized on the peak demand of apps 1 to 20
     * (simulator/README.md); as {@code examples/simulate/dlrm-racks.yaml}.
     */
    public static ClusterSpec defaultCluster() {
        Resources cpuNode = Resources.of(192_000, 1536 * GIB).withScalar(RDMA, 100_000);
        Resources gpuNode = Resources.of(96_000, 768 * GIB).withScalar(RDMA, 100_000).withScalar(Resources.GPU, 4000);
        return new ClusterSpec(ImmutableList.of(new NodePool("cn", 720, cpuNode, ImmutableMap.of(), 20, 110, "dc"),
                new NodePool("hn", 288, gpuNode, ImmutableMap.of(), 8, 110, "dc")));
    }

    private record Instance(String app, int appNumber, String role, Resources request, long createdSeconds, Optional<Long> deletedSeconds) {}

    private record Group(int appNumber, long createdSeconds) {}

    public static Workload load(Path path, TraceSelection selection) {
        CsvFile csv = CsvFile.read(path, "role", "app_name", "cpu_request", "gpu_request", "rdma_request", "memory_request",
                "max_instance_per_node", "creation_time", "deletion_time");
        String source = path.getFileName().toString();
        List<LoadProblem> problems = new ArrayList<>();
        Map<Group, List<Instance>> groups = new TreeMap<>(Comparator.comparingLong(Group::createdSeconds).thenComparingInt(Group::appNumber));
        long windowEnd = 0;
        for (Row row : csv.rows()) {
            try {
                Instance instance = instance(csv, row);
                groups.computeIfAbsent(new Group(instance.appNumber(), instance.createdSeconds()), group -> new ArrayList<>()).add(instance);
                windowEnd = Math.max(windowEnd, Math.max(instance.createdSeconds(), instance.deletedSeconds().orElse(0L)));
            } catch (RowException e) {
                problems.add(new LoadProblem(source, row.line(), e.getMessage()));
            }
        }
        List<WorkloadJob> jobs = new ArrayList<>();
        for (Map.Entry<Group, List<Instance>> group : groups.entrySet()) {
            jobs.add(job(group.getValue(), windowEnd));
        }
        TraceSelection.Selected selected = selection.apply(jobs);
        return new Workload(source, selected.epoch(), selected.jobs(), ImmutableSortedMap.of(new QueueName(QUEUE), 1),
                ImmutableList.copyOf(problems), 0);
    }

    private static Instance instance(CsvFile csv, Row row) {
        String role = row.get(csv.column("role"));
        if (!role.equals(CN) && !role.equals(HN)) {
            throw new RowException("role must be CN or HN: '" + role + "'");
        }
        String app = row.get(csv.column("app_name"));
        if (!app.matches("app_[0-9]{1,9}")) {
            throw new RowException("app_name is not app_<n>: '" + app + "'");
        }
        double cpu = positive(csv, row, "cpu_request");
        double memory = positive(csv, row, "memory_request");
        double gpu = notNegative(csv, row, "gpu_request");
        double rdma = notNegative(csv, row, "rdma_request");
        double perNode = CsvFile.number(row, csv.column("max_instance_per_node"), "max_instance_per_node");
        if (perNode != Math.rint(perNode) || perNode < -1 || perNode == 0) {
            throw new RowException("max_instance_per_node must be -1 or a positive integer: '" + row.get(csv.column("max_instance_per_node")) + "'");
        }
        Optional<Long> created = seconds(csv, row, "creation_time");
        Optional<Long> deleted = seconds(csv, row, "deletion_time");
        if (created.isPresent() && deleted.isPresent() && deleted.get() < created.get()) {
            throw new RowException("deletion_time " + deleted.get() + " is before creation_time " + created.get());
        }
        Resources request = Resources.of(cpu * 1000, memory * GIB);
        if (gpu > 0) {
            request = request.withScalar(Resources.GPU, gpu * 1000);
        }
        if (rdma > 0) {
            request = request.withScalar(RDMA, rdma * 1000);
        }
        return new Instance(app, Integer.parseInt(app.substring("app_".length())), role, request, created.orElse(0L), deleted);
    }

    private static WorkloadJob job(List<Instance> instances, long windowEnd) {
        Instance first = instances.get(0);
        long lastSecond = instances.stream().mapToLong(instance -> instance.deletedSeconds().orElse(windowEnd)).max().orElseThrow();
        long durationMillis = Math.max(1, lastSecond - first.createdSeconds()) * 1000;
        Optional<Resources> cn = largest(instances, CN);
        Optional<Resources> hn = largest(instances, HN);
        long cnCount = instances.stream().filter(instance -> instance.role().equals(CN)).count();
        GangSpec gang;
        if (cn.isPresent() && hn.isPresent()) {
            gang = new GangSpec("serving", instances.size() - (int) cnCount, hn.get(), durationMillis).withRole(HN)
                    .withParameterServers(new ParameterServers((int) cnCount, cn.get(), 0, CN, false));
        } else {
            gang = new GangSpec("serving", instances.size(), cn.or(() -> hn).orElseThrow(), durationMillis).withRole(cn.isPresent() ? CN : HN);
        }
        return WorkloadJob.single(first.app() + "@" + first.createdSeconds(), new QueueName(QUEUE), first.createdSeconds() * 1000, gang);
    }

    /** The largest request of each resource over the role's instances; empty without any. */
    private static Optional<Resources> largest(List<Instance> instances, String role) {
        return instances.stream().filter(instance -> instance.role().equals(role)).map(Instance::request).reduce(Resources::max);
    }

    private static double positive(CsvFile csv, Row row, String column) {
        double value = CsvFile.number(row, csv.column(column), column);
        if (value <= 0) {
            throw new RowException(column + " must be positive: '" + row.get(csv.column(column)) + "'");
        }
        return value;
    }

    private static double notNegative(CsvFile csv, Row row, String column) {
        double value = CsvFile.number(row, csv.column(column), column);
        if (value < 0) {
            throw new RowException(column + " must not be negative: '" + row.get(csv.column(column)) + "'");
        }
        return value;
    }

    /** Whole seconds from the trace's start; empty for an empty field (outside the window). */
    private static Optional<Long> seconds(CsvFile csv, Row row, String column) {
        if (row.get(csv.column(column)).isEmpty()) {
            return Optional.empty();
        }
        double value = notNegative(csv, row, column);
        return Optional.of((long) Math.floor(value));
    }
}
