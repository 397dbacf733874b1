package dev.muster.sim.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.sim.Comparison;
import dev.muster.sim.metrics.JobRecord;
import dev.muster.sim.metrics.RunResult;
import dev.muster.sim.metrics.Sample;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/** The numbers the report's charts draw, as one JSON object, downsampled so the file stays small. */
final class ReportData {
    private static final int POINTS = 300;
    private static final int GANTT_JOBS = 20;
    private static final int QUEUES_SHOWN = 6;

    private ReportData() {}

    static ObjectNode build(Comparison comparison, ObjectMapper mapper) {
        ObjectNode root = mapper.createObjectNode();
        long end = comparison.runs().stream().mapToLong(RunResult::endMillis).max().orElse(0);
        ArrayNode policies = root.putArray("policies");
        for (RunResult run : comparison.runs()) {
            ObjectNode policy = policies.addObject();
            policy.put("name", run.policy());
            policy.put("measured", run.measured());
            jctDistribution(run, policy.putArray("jctCdf"));
            timeSeries(run, end, policy);
        }
        gantt(comparison, root.putArray("gantt"));
        return root;
    }

    /** Points (JCT seconds, fraction of completed jobs at most that long). */
    private static void jctDistribution(RunResult run, ArrayNode points) {
        double[] jct = run.jobs().stream().filter(JobRecord::completed).mapToDouble(JobRecord::jctSeconds).sorted().toArray();
        int step = Math.max(1, jct.length / POINTS);
        for (int i = 0; i < jct.length; i += step) {
            points.addArray().add(Math.max(1, jct[i])).add((i + 1.0) / jct.length);
        }
        if (jct.length > 0) {
            points.addArray().add(Math.max(1, jct[jct.length - 1])).add(1.0);
        }
    }

    /** GPU and cpu allocation and the largest queues' share and deserved share at evenly spaced hours. */
    private static void timeSeries(RunResult run, long end, ObjectNode policy) {
        List<Sample> samples = run.timeline().samples();
        ArrayNode hours = policy.putArray("hours");
        ArrayNode gpu = policy.putArray("gpu");
        ArrayNode cpu = policy.putArray("cpu");
        List<Integer> queues = largestQueues(run);
        ArrayNode queueSeries = policy.putArray("queues");
        ArrayNode[] shares = new ArrayNode[queues.size()];
        ArrayNode[] deserved = new ArrayNode[queues.size()];
        for (int q = 0; q < queues.size(); q++) {
            ObjectNode queue = queueSeries.addObject();
            queue.put("name", run.timeline().queues().get(queues.get(q)).value());
            shares[q] = queue.putArray("share");
            deserved[q] = queue.putArray("deserved");
        }
        int index = 0;
        for (int p = 0; p <= POINTS && !samples.isEmpty(); p++) {
            long time = end * p / POINTS;
            while (index + 1 < samples.size() && samples.get(index + 1).millis() <= time) {
                index++;
            }
            Sample sample = samples.get(index);
            boolean started = sample.millis() <= time;
            hours.add(Math.round(time / 36_000.0) / 100.0);
            gpu.add(started ? round(sample.gpu()) : 0);
            cpu.add(started ? round(sample.cpu()) : 0);
            for (int q = 0; q < queues.size(); q++) {
                shares[q].add(started ? round(sample.queueShare(queues.get(q))) : 0);
                deserved[q].add(started ? round(sample.queueDeserved(queues.get(q))) : 0);
            }
        }
    }

    private static List<Integer> largestQueues(RunResult run) {
        return IntStream.range(0, run.timeline().queues().size()).boxed()
                .sorted(Comparator.comparingDouble((Integer q) -> -run.timeline().deservedIntegral(q)).thenComparing(q -> q))
                .limit(QUEUES_SHOWN).toList();
    }

    /** The largest jobs by GPU-seconds (cpu when no GPU), each with its arrival, start and completion per policy, in hours. */
    private static void gantt(Comparison comparison, ArrayNode gantt) {
        List<JobRecord> first = comparison.runs().get(0).jobs();
        List<String> largest = first.stream()
                .sorted(Comparator.comparingDouble(JobRecord::gpuSeconds).reversed().thenComparing(JobRecord::id))
                .limit(GANTT_JOBS).map(JobRecord::id).toList();
        for (String id : largest) {
            ObjectNode job = gantt.addObject();
            job.put("id", id);
            ObjectNode byPolicy = job.putObject("policies");
            for (RunResult run : comparison.runs()) {
                run.jobs().stream().filter(record -> record.id().equals(id)).findFirst().ifPresent(record -> {
                    ArrayNode times = byPolicy.putArray(run.policy());
                    times.add(hours(record.arrivalMillis()));
                    times.add(record.startedMillis() < 0 ? hours(run.endMillis()) : hours(record.startedMillis()));
                    times.add(record.completed() ? hours(record.completedMillis()) : hours(run.endMillis()));
                    times.add(record.completed());
                });
            }
        }
    }

    private static double hours(long millis) {
        return Math.round(millis / 36_000.0) / 100.0;
    }

    private static double round(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }
}
