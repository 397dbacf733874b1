package dev.muster.sim.workload;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.QueueName;
import dev.muster.sim.SimulationException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A generated GPU workload, for quick experiments without a trace. The spec is
 * {@code key=value} pairs separated by commas, every key optional:
 * <ul>
 *   <li>{@code jobs} (200): how many jobs;</li>
 *   <li>{@code queues} (2): queues {@code q0..q<n-1>}, equal weights, jobs spread round-robin;</li>
 *   <li>{@code gpus} ({@code 1|2|4|8|16}): GPU counts to draw from uniformly, as Philly gangs
 *       ({@link PhillyLoader#gang}, pods of up to 8 GPUs);</li>
 *   <li>{@code duration} ({@code 60..3600}): run time in seconds, log-uniform in the range;</li>
 *   <li>{@code interval} (60): mean seconds between arrivals (exponential).</li>
 * </ul>
 * The same spec and seed give the same jobs.
 */
public final class SyntheticWorkload {
    private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

    private SyntheticWorkload() {}

    public static Workload generate(String spec, long seed, TraceSelection selection) {
        Map<String, String> values = parse(spec);
        int jobs = positiveInt(values, "jobs", 200);
        int queues = positiveInt(values, "queues", 2);
        double interval = positive(values, "interval", 60);
        List<Integer> gpus = new ArrayList<>();
        for (String value : values.getOrDefault("gpus", "1|2|4|8|16").split("\\|")) {
            gpus.add((int) positive(Map.of("gpus", value), "gpus", 1));
        }
        String[] range = values.getOrDefault("duration", "60..3600").split("\\.\\.");
        if (range.length != 2) {
            throw new SimulationException("synthetic: duration must be MIN..MAX seconds, not '" + values.get("duration") + "'");
        }
        double min = positive(Map.of("duration", range[0]), "duration", 60);
        double max = positive(Map.of("duration", range[1]), "duration", 3600);
        checkArgumentInput(min <= max, "synthetic: duration minimum " + min + " exceeds maximum " + max);
        Random random = new Random(seed);
        List<WorkloadJob> generated = new ArrayList<>();
        double time = 0;
        for (int i = 0; i < jobs; i++) {
            int jobGpus = gpus.get(random.nextInt(gpus.size()));
            double duration = Math.exp(Math.log(min) + random.nextDouble() * (Math.log(max) - Math.log(min)));
            GangSpec gang = PhillyLoader.gang(jobGpus, 8, Math.max(1, Math.round(duration * 1000)));
            generated.add(WorkloadJob.single(String.format("synthetic-%05d", i), new QueueName("q" + (i % queues)),
                    EPOCH.toEpochMilli() + Math.round(time * 1000), gang));
            time += -Math.log(1 - random.nextDouble()) * interval;
        }
        TraceSelection.Selected selected = selection.apply(generated);
        ImmutableSortedMap.Builder<QueueName, Integer> weights = ImmutableSortedMap.naturalOrder();
        for (int q = 0; q < queues; q++) {
            weights.put(new QueueName("q" + q), 1);
        }
        return new Workload("synthetic:" + spec, selected.epoch(), selected.jobs(), weights.build(), ImmutableList.of(), 0);
    }

    private static Map<String, String> parse(String spec) {
        Map<String, String> values = new TreeMap<>();
        for (String pair : spec.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            String[] parts = pair.split("=", 2);
            if (parts.length != 2 || !List.of("jobs", "queues", "gpus", "duration", "interval").contains(parts[0].trim())) {
                throw new SimulationException("synthetic: '" + pair + "' is not one of jobs=N, queues=N, gpus=A|B, duration=MIN..MAX, interval=SECONDS");
            }
            values.put(parts[0].trim(), parts[1].trim());
        }
        return values;
    }

    private static int positiveInt(Map<String, String> values, String key, int defaultValue) {
        double value = positive(values, key, defaultValue);
        checkArgumentInput(value == Math.rint(value), "synthetic: " + key + " must be an integer, not " + values.get(key));
        return (int) value;
    }

    private static double positive(Map<String, String> values, String key, double defaultValue) {
        if (!values.containsKey(key)) {
            return defaultValue;
        }
        try {
            double value = Double.parseDouble(values.get(key));
            checkArgumentInput(value > 0 && Double.isFinite(value), "synthetic: " + key + " must be positive, not " + values.get(key));
            return value;
        } catch (NumberFormatException e) {
            throw new SimulationException("synthetic: " + key + " is not a number: '" + values.get(key) + "'", e);
        }
    }

    private static void checkArgumentInput(boolean condition, String message) {
        if (!condition) {
            throw new SimulationException(message);
        }
    }
}
