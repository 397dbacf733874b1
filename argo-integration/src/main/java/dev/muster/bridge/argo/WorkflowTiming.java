package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import dev.muster.graph.CriticalPath;
import dev.muster.graph.NodeId;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * How long a workflow's templates take: a leaf template its estimate, a DAG or steps template the
 * length of its graph's critical path, where a task takes as long as the template it calls. A template
 * without a known duration (no estimate, a {@code templateRef}, one that calls itself) makes every
 * template that calls it unknown too: a critical path with a guess in it would order by the guess.
 * Not thread-safe: one per planning of one workflow.
 */
final class WorkflowTiming {
    private final Map<String, TemplateGraphs.TemplateGraph> graphs;
    private final Function<String, Optional<Duration>> leafEstimate;
    private final Map<String, Optional<CriticalPath>> paths = new HashMap<>();
    private final Set<String> visiting = new HashSet<>();

    /**
     * @param leafEstimate per leaf template name, its estimate
     */
    WorkflowTiming(Map<String, TemplateGraphs.TemplateGraph> graphs, Function<String, Optional<Duration>> leafEstimate) {
        this.graphs = requireNonNull(graphs, "graphs is null");
        this.leafEstimate = requireNonNull(leafEstimate, "leafEstimate is null");
    }

    /** The time one run of the template takes. */
    Optional<Duration> duration(String template) {
        if (!graphs.containsKey(template)) {
            return leafEstimate.apply(template);
        }
        return criticalPath(template).map(CriticalPath::length);
    }

    /** The critical path of a DAG or steps template, when every node's duration is known. */
    Optional<CriticalPath> criticalPath(String template) {
        TemplateGraphs.TemplateGraph graph = graphs.get(template);
        if (graph == null) {
            return Optional.empty();
        }
        if (paths.containsKey(template)) {
            return paths.get(template);
        }
        if (!visiting.add(template)) {
            // a template that calls itself, as Argo's recursive examples do: its length depends on the run
            return Optional.empty();
        }
        Map<NodeId, Duration> durations = new HashMap<>();
        boolean known = true;
        for (Map.Entry<NodeId, Optional<String>> call : graph.calls().entrySet()) {
            Optional<Duration> duration = call.getValue().flatMap(this::duration);
            if (duration.isEmpty()) {
                known = false;
                break;
            }
            durations.put(call.getKey(), duration.get());
        }
        visiting.remove(template);
        Optional<CriticalPath> path = known ? Optional.of(CriticalPath.of(graph.graph(), durations)) : Optional.empty();
        paths.put(template, path);
        return path;
    }

    /** The duration of one node of a template's graph: that of the template it calls. */
    Optional<Duration> nodeDuration(String template, NodeId node) {
        TemplateGraphs.TemplateGraph graph = graphs.get(template);
        if (graph == null || !graph.calls().containsKey(node)) {
            return Optional.empty();
        }
        return graph.calls().get(node).flatMap(this::duration);
    }
}
