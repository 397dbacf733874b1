package dev.muster.sim.workload;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import dev.muster.sim.workload.CsvFile.Row;
import dev.muster.sim.workload.CsvFile.RowException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads the Alibaba GPU cluster trace v2023 pod list ({@code openb_pod_list_*.csv}:
 * {@code name,cpu_milli,memory_mib,num_gpu,gpu_milli,...,creation_time,deletion_time,scheduled_time}).
 *
 * <p>The mapping, following the trace's README (time-based replay):
 * <ul>
 *   <li>one row is one job of one pod (the trace has no gangs; multi-GPU pods are single pods);</li>
 *   <li>the pod requests {@code cpu_milli} millicores, {@code memory_mib} MiB and {@code num_gpu}
 *       GPUs; a GPU-sharing pod ({@code num_gpu = 1}, {@code gpu_milli < 1000}) requests
 *       {@code gpu_milli} thousandths of an {@code nvidia.com/gpu}, the engine's milli-units, so
 *       shares pack onto one GPU in the model;</li>
 *   <li>arrival is {@code creation_time}, run time {@code deletion_time - scheduled_time} (at least 1 s);</li>
 *   <li>pods never scheduled in the trace (no {@code scheduled_time}) are left out and counted;
 *       every pod goes to the queue {@code default}.</li>
 * </ul>
 */
public final class OpenbLoader {
    private OpenbLoader() {}

    public static Workload load(Path path, TraceSelection selection) {
        CsvFile csv = CsvFile.read(path, "name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "creation_time", "deletion_time", "scheduled_time");
        String source = path.getFileName().toString();
        List<LoadProblem> problems = new ArrayList<>();
        List<WorkloadJob> jobs = new ArrayList<>();
        int skipped = 0;
        for (Row row : csv.rows()) {
            try {
                if (row.get(csv.column("scheduled_time")).isEmpty()) {
                    skipped++;
                    continue;
                }
                double cpu = CsvFile.number(row, csv.column("cpu_milli"), "cpu_milli");
                double memory = CsvFile.number(row, csv.column("memory_mib"), "memory_mib");
                double gpus = CsvFile.number(row, csv.column("num_gpu"), "num_gpu");
                double share = row.get(csv.column("gpu_milli")).isEmpty() ? 1000 : CsvFile.number(row, csv.column("gpu_milli"), "gpu_milli");
                double created = CsvFile.number(row, csv.column("creation_time"), "creation_time");
                double scheduled = CsvFile.number(row, csv.column("scheduled_time"), "scheduled_time");
                double deleted = CsvFile.number(row, csv.column("deletion_time"), "deletion_time");
                if (cpu < 0 || memory < 0 || gpus < 0 || share < 0 || share > 1000 || created < 0) {
                    throw new RowException("negative request or gpu_milli outside 0..1000");
                }
                double gpuMilli = gpus == 1 && share > 0 && share < 1000 ? share : gpus * 1000;
                Resources request = Resources.of(cpu, memory * (1 << 20));
                if (gpuMilli > 0) {
                    request = request.withScalar(Resources.GPU, gpuMilli);
                }
                long duration = Math.max(1000, Math.round((deleted - scheduled) * 1000));
                String name = row.get(csv.column("name"));
                jobs.add(WorkloadJob.single(name.isEmpty() ? "pod-" + row.line() : name, Queue.DEFAULT, Math.round(created * 1000),
                        new GangSpec("pod", 1, request, duration)));
            } catch (RowException e) {
                problems.add(new LoadProblem(source, row.line(), e.getMessage()));
            }
        }
        jobs.sort(Comparator.comparingLong(WorkloadJob::arrivalMillis));
        TraceSelection.Selected selected = selection.apply(jobs);
        return new Workload(source, selected.epoch(), selected.jobs(), ImmutableSortedMap.of(Queue.DEFAULT, 1), ImmutableList.copyOf(problems), skipped);
    }
}
