package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The scenario {@code muster demo} plays on the embedded cluster, from the manifests in
 * {@code examples/demo}: two training gangs that would deadlock if placed pod by pod, then a queue
 * that borrows idle capacity and gives it back when the other queue asks.
 */
final class DemoScript {
    /** The demo's cluster: 4 nodes with 8 GPUs each. */
    static final String NODES = "gpu:4:cpu=64,memory=512Gi,nvidia.com/gpu=8";
    private static final Duration PART_TIMEOUT = Duration.ofSeconds(90);

    private final KubernetesClient client;
    private final Path examples;
    private final ClusterWatch watch;
    private final PrintWriter out;

    DemoScript(KubernetesClient client, Path examples, PrintWriter out) {
        this.client = requireNonNull(client, "client is null");
        this.examples = requireNonNull(examples, "examples is null");
        this.out = requireNonNull(out, "out is null");
        this.watch = new ClusterWatch(client, out);
    }

    /** Plays both parts and prints the summary; false if a part did not finish in time. */
    boolean play() throws IOException, InterruptedException {
        out.println();
        out.println("Part 1: two training jobs that each need 24 of the 32 GPUs");
        watch.say("Submitting llama-finetune and resnet-train (" + examples.resolve("1-training.yaml") + "): 3 workers with 8 GPUs each,"
                + " 48 GPUs asked of 32.");
        watch.say("Placed pod by pod as they arrive, they would alternate: llama-0, resnet-0, llama-1, resnet-1 fill the 4 nodes and the"
                + " third worker of each finds no GPU. Each job would hold 16 GPUs, wait for the other forever, and neither would start.");
        apply("1-training.yaml");
        boolean first = watch.await(jobs -> done(jobs, "llama-finetune") && done(jobs, "resnet-train"), PART_TIMEOUT);
        if (first) {
            watch.say("Both finished. Muster places a gang whole or not at all: the second job waited without holding a GPU"
                    + " and started as soon as the first freed its nodes.");
        }

        out.println();
        out.println("Part 2: a queue borrows idle capacity and gives it back");
        watch.say("Creating queues research and production (" + examples.resolve("2-queues.yaml") + "), equal weights: each deserves"
                + " half the GPUs when both want them, and either may use what the other leaves idle.");
        apply("2-queues.yaml");
        watch.say("research submits a sweep of 8 trials of 8 GPUs, 10 s each, while production is idle.");
        apply("3-research-sweep.yaml");
        watch.await(jobs -> jobs.values().stream().filter(job -> job.name.startsWith("sweep-") && job.running()).count() >= 4,
                PART_TIMEOUT);
        watch.say("research runs on all 4 nodes: it borrows production's idle half. Its other trials wait for a node.");
        watch.say("production submits nightly-retrain, a gang of 2 workers with 8 GPUs.");
        apply("4-production-retrain.yaml");
        boolean second = watch.await(jobs -> done(jobs, "nightly-retrain")
                && jobs.values().stream().filter(job -> job.name.startsWith("sweep-")).allMatch(ClusterWatch.JobView::done), PART_TIMEOUT);
        if (second) {
            watch.say("When research's first trials ended, production got its half at once and research's older trials only the"
                    + " other half: research was above its share, production below. Once production was done, research had the"
                    + " whole cluster again.");
        }
        summary();
        return first && second;
    }

    private void apply(String file) throws IOException {
        try (InputStream input = Files.newInputStream(examples.resolve(file))) {
            for (HasMetadata object : client.load(input).items()) {
                client.resource(object).create();
                if (object.getKind().equals("PodGroup")) {
                    watch.submitted(object.getMetadata().getName());
                }
            }
        }
    }

    private static boolean done(Map<String, ClusterWatch.JobView> jobs, String name) {
        ClusterWatch.JobView job = jobs.get(name);
        return job != null && job.done();
    }

    private void summary() {
        out.println();
        out.println("Summary (seconds since the demo started)");
        out.printf(Locale.ROOT, "  %-16s %-11s %9s %7s %8s %6s  %s%n", "job", "queue", "submitted", "started", "finished", "waited", "nodes");
        for (ClusterWatch.JobView job : watch.jobs().values()) {
            out.printf(Locale.ROOT, "  %-16s %-11s %9s %7s %8s %6s  %s%n", job.name, job.queue, time(job.submitted), time(job.started),
                    time(job.finished), job.started < 0 || job.submitted < 0 ? "-" : time(job.started - job.submitted),
                    job.nodes.values().stream().distinct().collect(Collectors.joining(",")));
        }
        long finished = watch.jobs().values().stream().filter(ClusterWatch.JobView::done).count();
        out.printf(Locale.ROOT, "%d of %d jobs finished; no job held part of its gang while it waited for the rest.%n", finished,
                watch.jobs().size());
        out.flush();
    }

    private static String time(double seconds) {
        return seconds < 0 ? "-" : String.format(Locale.ROOT, "%.1f", seconds);
    }
}
