package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Follows the embedded cluster for {@code muster demo}: polls pods and PodGroups, tells in plain words
 * what changed (a gang bound, a gang held back and why, a job finished), and keeps each job's times
 * for the summary. Not thread-safe: the demo's thread uses it.
 */
final class ClusterWatch {
    private static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups")
            .withNamespaced(true).build();
    private static final Duration POLL = Duration.ofMillis(200);

    /** A job as the demo sees it: its PodGroup and pods, and when things happened (seconds since the start). */
    static final class JobView {
        final String name;
        String queue = "";
        String phase = "";
        String unschedulable = "";
        int minMember;
        final Map<String, String> nodes = new TreeMap<>();
        final Map<String, String> podPhases = new TreeMap<>();
        double submitted = -1;
        double started = -1;
        double finished = -1;

        JobView(String name) {
            this.name = name;
        }

        boolean done() {
            return !podPhases.isEmpty() && podPhases.values().stream().allMatch(phase -> phase.equals("Succeeded") || phase.equals("Failed"));
        }

        boolean running() {
            return started >= 0 && !done();
        }
    }

    private final KubernetesClient client;
    private final PrintWriter out;
    private final long startNanos = System.nanoTime();
    private final Map<String, JobView> jobs = new LinkedHashMap<>();

    ClusterWatch(KubernetesClient client, PrintWriter out) {
        this.client = requireNonNull(client, "client is null");
        this.out = requireNonNull(out, "out is null");
    }

    /** Prints a line of narration, stamped with the seconds since the demo started. */
    void say(String text) {
        out.printf(Locale.ROOT, "[%5.1fs] %s%n", seconds(), text);
        out.flush();
    }

    Map<String, JobView> jobs() {
        return jobs;
    }

    JobView job(String name) {
        return jobs.computeIfAbsent(name, JobView::new);
    }

    /**
     * Polls, narrating, until the condition holds over the jobs.
     *
     * @return false if it did not hold within the timeout
     */
    boolean await(Predicate<Map<String, JobView>> condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            poll();
            if (condition.test(jobs)) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
        }
    }

    void poll() {
        double now = seconds();
        Map<String, List<String>> newlyWaiting = new LinkedHashMap<>();
        for (GenericKubernetesResource group : client.genericKubernetesResources(POD_GROUPS).inNamespace("default").list().getItems()) {
            JobView job = job(group.getMetadata().getName());
            if (job.submitted < 0) {
                job.submitted = now;
            }
            job.queue = Objects.toString(group.get("spec", "queue"), "default");
            job.minMember = group.get("spec", "minMember") instanceof Number number ? number.intValue() : 1;
            job.phase = Objects.toString(group.get("status", "phase"), "");
            String reason = unschedulable(group);
            if (!reason.isEmpty() && !reason.equals(job.unschedulable) && job.started < 0) {
                newlyWaiting.computeIfAbsent(reason, key -> new ArrayList<>()).add(job.name);
            }
            job.unschedulable = reason;
        }
        Map<String, List<String>> newlyBound = new LinkedHashMap<>();
        for (Pod pod : client.pods().inNamespace("default").list().getItems()) {
            String group = pod.getMetadata().getAnnotations() == null ? null : pod.getMetadata().getAnnotations().get(SchedulingApi.GROUP_NAME_ANNOTATION);
            if (group == null) {
                continue;
            }
            JobView job = job(group);
            String name = pod.getMetadata().getName();
            String node = pod.getSpec().getNodeName();
            if (node != null && !job.nodes.containsKey(name)) {
                job.nodes.put(name, node);
                newlyBound.computeIfAbsent(group, key -> new ArrayList<>()).add(node);
            }
            job.podPhases.put(name, pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase());
        }
        for (JobView job : jobs.values()) {
            if (job.finished < 0 && job.done()) {
                job.finished = now;
                long failed = job.podPhases.values().stream().filter("Failed"::equals).count();
                say(job.name + (failed == 0 ? " finished: " + pods(job.podPhases.size()) + " succeeded" : " failed: " + pods((int) failed)
                        + " failed") + "; its GPUs are free again.");
            }
        }
        newlyBound.forEach((group, nodes) -> {
            JobView job = job(group);
            boolean whole = job.nodes.size() == nodes.size();
            if (job.started < 0) {
                job.started = now;
            }
            String what = !whole ? "bound " + nodes.size() + " more pods" : nodes.size() == 1 ? "bound its pod" : "bound all " + nodes.size() + " pods at once";
            say(job.name + ": Muster " + what + " (" + String.join(", ", nodes) + ")"
                    + (whole ? String.format(Locale.ROOT, ", %.0f s after it was submitted.", now - job.submitted) : "."));
        });
        newlyWaiting.forEach((reason, names) -> say(String.join(", ", names) + (names.size() == 1 ? " waits" : " wait")
                + ", holding nothing. Muster says: " + reason));
    }

    /** The job's PodGroup was just created: its times count from now. */
    void submitted(String name) {
        JobView job = job(name);
        if (job.submitted < 0) {
            job.submitted = seconds();
        }
    }

    private static String pods(int count) {
        return count == 1 ? "its pod" : "all " + count + " pods";
    }

    private double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    @SuppressWarnings("unchecked")
    private static String unschedulable(GenericKubernetesResource group) {
        Object conditions = group.get("status", "conditions");
        if (conditions instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> condition && "Unschedulable".equals(condition.get("type"))
                        && "True".equals(condition.get("status"))) {
                    return Objects.toString(((Map<String, Object>) condition).get("message"), "");
                }
            }
        }
        return "";
    }
}
