package dev.muster.sim.workload;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.sim.workload.CsvFile.Row;
import dev.muster.sim.workload.CsvFile.RowException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the Microsoft Philly job trace as processed by the Pollux authors
 * ({@code philly_jobs_adaptdl.csv}: {@code timestamp,duration,num_gpus,gpu_time,cluster}).
 *
 * <p>The mapping, following the trace's README:
 * <ul>
 *   <li>one row is one job of one gang; arrival is {@code timestamp} (cluster local time, read as
 *       given); rows are sorted by it, ties kept in file order;</li>
 *   <li>{@code num_gpus} is the gang: with {@code gpusPerPod} = 8 (the default, Philly's 8-GPU
 *       servers) a job of up to 8 GPUs is one pod, a bigger one is {@code ceil(n / 8)} pods sharing
 *       the GPUs evenly; with {@code gpusPerPod} = 1, {@code n} pods of one GPU each (which stresses
 *       gang admission on fragmented nodes);</li>
 *   <li>cpu and memory are not in the trace: each GPU brings 6 cores and 56 GiB (a 48-core, 448 GiB
 *       8-GPU server);</li>
 *   <li>every pod runs for {@code duration} seconds once the whole gang runs;</li>
 *   <li>the virtual cluster ({@code cluster}) is the queue {@code vc-<cluster>}, weighted by its
 *       share of the selected jobs' GPU-hours in percent (at least 1).</li>
 * </ul>
 * A row that cannot be parsed is skipped and reported with its line number.
 */
public final class PhillyLoader {
    public static final double CPU_MILLIS_PER_GPU = 6000;
    public static final double MEMORY_PER_GPU = 56.0 * (1L << 30);
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private PhillyLoader() {}

    public static Workload load(Path path, TraceSelection selection, int gpusPerPod) {
        checkArgument(gpusPerPod > 0, "gpusPerPod must be positive: %s", gpusPerPod);
        CsvFile csv = CsvFile.read(path, "timestamp", "duration", "num_gpus", "cluster");
        int timestampColumn = csv.column("timestamp");
        int durationColumn = csv.column("duration");
        int gpusColumn = csv.column("num_gpus");
        int clusterColumn = csv.column("cluster");
        String source = path.getFileName().toString();
        List<LoadProblem> problems = new ArrayList<>();
        List<WorkloadJob> jobs = new ArrayList<>();
        for (Row row : csv.rows()) {
            try {
                LocalDateTime submitted = timestamp(row.get(timestampColumn));
                double duration = CsvFile.number(row, durationColumn, "duration");
                if (duration <= 0) {
                    throw new RowException("duration must be positive: " + row.get(durationColumn));
                }
                int gpus = (int) CsvFile.number(row, gpusColumn, "num_gpus");
                if (gpus <= 0 || gpus != CsvFile.number(row, gpusColumn, "num_gpus")) {
                    throw new RowException("num_gpus must be a positive integer: '" + row.get(gpusColumn) + "'");
                }
                String cluster = row.get(clusterColumn);
                if (!cluster.matches("[0-9a-z]+")) {
                    throw new RowException("cluster is not a virtual cluster id: '" + cluster + "'");
                }
                GangSpec gang = gang(gpus, gpusPerPod, Math.max(1, Math.round(duration * 1000)));
                jobs.add(WorkloadJob.single("philly-" + row.line(), new QueueName("vc-" + cluster),
                        TraceSelection.traceMillis(submitted), gang));
            } catch (RowException e) {
                problems.add(new LoadProblem(source, row.line(), e.getMessage()));
            }
        }
        jobs.sort(Comparator.comparingLong(WorkloadJob::arrivalMillis));
        TraceSelection.Selected selected = selection.apply(jobs);
        return new Workload(source, selected.epoch(), selected.jobs(), weights(selected.jobs()), ImmutableList.copyOf(problems), 0);
    }

    /** The gang of a job of {@code gpus} GPUs. */
    static GangSpec gang(int gpus, int gpusPerPod, long durationMillis) {
        int pods = (gpus + gpusPerPod - 1) / gpusPerPod;
        int perPod = (gpus + pods - 1) / pods;
        Resources request = Resources.of(CPU_MILLIS_PER_GPU * perPod, MEMORY_PER_GPU * perPod).withScalar(Resources.GPU, 1000.0 * perPod);
        return new GangSpec("main", pods, request, durationMillis);
    }

    /** Each queue's share of the jobs' GPU-hours, in percent, at least 1. */
    static ImmutableSortedMap<QueueName, Integer> weights(ImmutableList<WorkloadJob> jobs) {
        Map<QueueName, Double> gpuSeconds = new TreeMap<>();
        double total = 0;
        for (WorkloadJob job : jobs) {
            gpuSeconds.merge(job.queue(), job.gpuSeconds(), Double::sum);
            total += job.gpuSeconds();
        }
        ImmutableSortedMap.Builder<QueueName, Integer> weights = ImmutableSortedMap.naturalOrder();
        for (Map.Entry<QueueName, Double> entry : gpuSeconds.entrySet()) {
            weights.put(entry.getKey(), (int) Math.max(1, Math.round(100 * entry.getValue() / total)));
        }
        return weights.build();
    }

    private static LocalDateTime timestamp(String text) {
        try {
            return LocalDateTime.parse(text, TIMESTAMP);
        } catch (DateTimeParseException e) {
            throw new RowException("timestamp is not yyyy-MM-dd HH:mm:ss: '" + text + "'");
        }
    }
}
