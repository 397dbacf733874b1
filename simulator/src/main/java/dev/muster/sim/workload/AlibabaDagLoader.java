package dev.muster.sim.workload;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import dev.muster.graph.GraphBuilder;
import dev.muster.graph.GraphException;
import dev.muster.graph.JobGraph;
import dev.muster.sim.workload.CsvFile.Row;
import dev.muster.sim.workload.CsvFile.RowException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the Alibaba cluster-trace-v2018 batch DAG sample ({@code batch_task_*.csv}:
 * {@code task_name,instance_num,job_name,status,start_time,end_time,duration,plan_cpu,plan_mem}).
 *
 * <p>The mapping, following the trace's README:
 * <ul>
 *   <li>a {@code job_name} is one job; each of its tasks is one gang of
 *       {@code min(instance_num, maxGangSize)} pods (Fuxi ran big tasks in waves, so the cap keeps
 *       gangs placeable; default 256);</li>
 *   <li>dependencies come from the task name {@code <letter><id>[_<parent id>]*}: {@code M5_3_4}
 *       is task 5 and waits for tasks 3 and 4; anything after the leading numbers (the
 *       {@code _Stg8} quirks, a trailing {@code _}) is ignored; a task is submitted when all its
 *       parents have finished, tracked with {@link dev.muster.graph.GraphRun};</li>
 *   <li>a pod requests {@code plan_cpu / 100} cores and {@code plan_mem / 100} of a 512 GiB node's
 *       memory, and runs for {@code duration} seconds (the mean instance run time; at least 1 ms);</li>
 *   <li>a job arrives at its earliest non-zero {@code start_time} (the trace has no submit time);</li>
 *   <li>jobs with a task not {@code Terminated} are left out and counted, as are jobs with a bad
 *       row (reported with its line number) or a cyclic graph; all jobs go to the queue
 *       {@code default} (the trace has no tenants).</li>
 * </ul>
 */
public final class AlibabaDagLoader {
    public static final int DEFAULT_MAX_GANG_SIZE = 256;
    public static final double NODE_MEMORY = 512.0 * (1L << 30);
    private static final Pattern TASK_NAME = Pattern.compile("^[A-Za-z]+(\\d+)((?:_\\d+)*)");

    private AlibabaDagLoader() {}

    private record TaskRow(int line, int id, List<Integer> parents, GangSpec gang, double start, boolean terminated) {}

    public static Workload load(Path path, TraceSelection selection, int maxGangSize) {
        CsvFile csv = CsvFile.read(path, "task_name", "instance_num", "job_name", "status", "start_time", "duration", "plan_cpu", "plan_mem");
        String source = path.getFileName().toString();
        List<LoadProblem> problems = new ArrayList<>();
        Map<String, List<TaskRow>> byJob = new LinkedHashMap<>();
        Set<String> broken = new LinkedHashSet<>();
        for (Row row : csv.rows()) {
            String job = row.get(csv.column("job_name"));
            if (job.isEmpty()) {
                problems.add(new LoadProblem(source, row.line(), "job_name is empty"));
                continue;
            }
            try {
                byJob.computeIfAbsent(job, name -> new ArrayList<>()).add(task(csv, row, maxGangSize));
            } catch (RowException e) {
                problems.add(new LoadProblem(source, row.line(), e.getMessage() + " (job " + job + " left out)"));
                broken.add(job);
            }
        }
        int skipped = broken.size();
        List<WorkloadJob> jobs = new ArrayList<>();
        for (Map.Entry<String, List<TaskRow>> entry : byJob.entrySet()) {
            if (broken.contains(entry.getKey())) {
                continue;
            }
            if (!entry.getValue().stream().allMatch(TaskRow::terminated)) {
                skipped++;
                continue;
            }
            try {
                jobs.add(job(entry.getKey(), entry.getValue(), source, problems));
            } catch (RowException e) {
                problems.add(new LoadProblem(source, entry.getValue().get(0).line(), e.getMessage()));
                skipped++;
            }
        }
        jobs.sort(Comparator.comparingLong(WorkloadJob::arrivalMillis));
        TraceSelection.Selected selected = selection.apply(jobs);
        return new Workload(source, selected.epoch(), selected.jobs(), ImmutableSortedMap.of(Queue.DEFAULT, 1), ImmutableList.copyOf(problems), skipped);
    }

    private static TaskRow task(CsvFile csv, Row row, int maxGangSize) {
        String name = row.get(csv.column("task_name"));
        Matcher matcher = TASK_NAME.matcher(name);
        if (!matcher.find()) {
            throw new RowException("task_name is not <letter><id>[_<parent>]*: '" + name + "'");
        }
        int id = Integer.parseInt(matcher.group(1));
        List<Integer> parents = new ArrayList<>();
        for (String parent : matcher.group(2).split("_")) {
            if (!parent.isEmpty()) {
                parents.add(Integer.parseInt(parent));
            }
        }
        double instances = CsvFile.number(row, csv.column("instance_num"), "instance_num");
        if (instances < 1 || instances != Math.rint(instances)) {
            throw new RowException("instance_num must be a positive integer: '" + row.get(csv.column("instance_num")) + "'");
        }
        double cpu = CsvFile.number(row, csv.column("plan_cpu"), "plan_cpu");
        double memory = CsvFile.number(row, csv.column("plan_mem"), "plan_mem");
        double duration = CsvFile.number(row, csv.column("duration"), "duration");
        if (cpu <= 0 || memory < 0 || duration < 0) {
            throw new RowException("plan_cpu must be positive, plan_mem and duration not negative");
        }
        double start = CsvFile.number(row, csv.column("start_time"), "start_time");
        Resources perPod = Resources.of(cpu * 10, memory / 100 * NODE_MEMORY);
        GangSpec gang = new GangSpec("task-" + id, (int) Math.min(instances, maxGangSize), perPod, Math.max(1, Math.round(duration * 1000)));
        return new TaskRow(row.line(), id, parents, gang, start, "Terminated".equals(row.get(csv.column("status"))));
    }

    private static WorkloadJob job(String name, List<TaskRow> tasks, String source, List<LoadProblem> problems) {
        GraphBuilder graph = JobGraph.builder();
        Set<Integer> ids = new LinkedHashSet<>();
        ImmutableList.Builder<GangSpec> gangs = ImmutableList.builder();
        double arrival = Double.MAX_VALUE;
        for (TaskRow task : tasks) {
            if (!ids.add(task.id())) {
                throw new RowException("job " + name + " has task " + task.id() + " twice (job left out)");
            }
            graph.node(task.gang().name());
            gangs.add(task.gang());
            if (task.start() > 0) {
                arrival = Math.min(arrival, task.start());
            }
        }
        for (TaskRow task : tasks) {
            for (int parent : task.parents()) {
                if (ids.contains(parent) && parent != task.id()) {
                    graph.edge("task-" + parent, task.gang().name());
                } else {
                    problems.add(new LoadProblem(source, task.line(), "job " + name + ": parent " + parent + " of task "
                            + task.id() + " is not another task of the job; dependency ignored"));
                }
            }
        }
        try {
            long arrivalMillis = arrival == Double.MAX_VALUE ? 0 : Math.round(arrival * 1000);
            return new WorkloadJob(name, Queue.DEFAULT, arrivalMillis, gangs.build(), graph.build());
        } catch (GraphException e) {
            throw new RowException("job " + name + ": " + e.getMessage() + " (job left out)");
        }
    }
}
