package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Durations of templates in earlier runs: for each finished Workflow the bridge sees, per template, the
 * longest {@code finishedAt - startedAt} of its succeeded Pod nodes (the time the stage took), kept per
 * namespace and {@link Workflow#lineage()}. The latest finished run of a lineage replaces the one before
 * it, template by template. Kept for one leader term: a new term reads again the finished Workflows the
 * cluster still holds.
 */
@ThreadSafe
final class DurationHistory {
    /** A template's duration in one run, and when that run's pod of it finished. */
    private record Observation(Instant finishedAt, Duration duration) {}

    private final Map<String, Map<String, Observation>> byLineage = new ConcurrentHashMap<>();
    private final Set<String> recorded = ConcurrentHashMap.newKeySet();

    /** Records a finished workflow's durations once; an unfinished one is ignored. */
    void record(Workflow workflow) {
        requireNonNull(workflow, "workflow is null");
        if (!workflow.isFinished() || !recorded.add(workflow.uid())) {
            return;
        }
        Map<String, Observation> longest = new HashMap<>();
        for (WorkflowNode node : workflow.nodes().values()) {
            if (node.type() != NodeType.POD || !node.phase().equals("Succeeded") || node.templateName().isEmpty()
                    || node.startedAt().isEmpty() || node.finishedAt().isEmpty()) {
                continue;
            }
            Observation took = new Observation(node.finishedAt().get(), Duration.between(node.startedAt().get(), node.finishedAt().get()));
            if (!took.duration().isNegative()) {
                longest.merge(node.templateName(), took, (left, right) -> left.duration().compareTo(right.duration()) >= 0 ? left : right);
            }
        }
        Map<String, Observation> lineage = byLineage.computeIfAbsent(key(workflow), ignored -> new ConcurrentHashMap<>());
        // informers list finished runs in no particular order: the run that finished last wins
        longest.forEach((template, took) -> lineage.merge(template, took,
                (before, latest) -> latest.finishedAt().isAfter(before.finishedAt()) ? latest : before));
    }

    /** The template's duration in the last finished run of the workflow's lineage that ran it. */
    Optional<Duration> duration(Workflow workflow, String template) {
        return Optional.ofNullable(byLineage.getOrDefault(key(workflow), Map.of()).get(template)).map(Observation::duration);
    }

    private static String key(Workflow workflow) {
        return workflow.namespace() + "/" + workflow.lineage();
    }
}
