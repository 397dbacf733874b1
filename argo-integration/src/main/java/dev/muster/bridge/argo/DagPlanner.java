package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.api.GoDuration;
import dev.muster.engine.plugins.dag.DagAnnotations;
import dev.muster.graph.CriticalPath;
import dev.muster.graph.NodeId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Decides the {@code dag} plugin's annotations ({@link DagAnnotations}) for a Workflow's PodGroups: the
 * DAG is the Workflow ({@code <namespace>/<name>}), the node is Argo's node name of the fan-out or pod,
 * and the remaining critical path is the time from that node's start to the end of the workflow along
 * its slowest chain: the rest of its own template's graph, then the rest of each enclosing template's
 * graph after the task that called it. A duration comes from the template's {@code
 * muster.dev/duration-estimate}, else from the last finished run of the same lineage, else there is none
 * and no remaining path is written (the node is still named). Argo creates a task's pods only once its
 * {@code depends} holds, so no {@code dag-waiting-on} is needed. Any {@link DagProblem} costs the whole
 * workflow its hints. Pure.
 */
public final class DagPlanner {
    private DagPlanner() {}

    public static DagPlan plan(Workflow workflow, TemplateReader.Result templates, Function<String, Optional<Duration>> history) {
        requireNonNull(workflow, "workflow is null");
        requireNonNull(templates, "templates is null");
        requireNonNull(history, "history is null");
        List<DagProblem> problems = new ArrayList<>(templates.problems());
        TemplateGraphs.Result graphs = TemplateGraphs.of(templates.templates());
        problems.addAll(graphs.problems());
        Map<String, Duration> estimates = new HashMap<>();
        for (ArgoTemplate template : templates.templates().values()) {
            template.durationEstimate().ifPresent(text -> estimate(template.name(), text, problems).ifPresent(d -> estimates.put(template.name(), d)));
        }
        if (!problems.isEmpty()) {
            return new DagPlan(ImmutableMap.of(), ImmutableList.copyOf(problems));
        }
        WorkflowTiming timing = new WorkflowTiming(graphs.graphs(), template -> Optional.ofNullable(estimates.get(template))
                .or(() -> history.apply(template)));
        Locator locator = new Locator(workflow, graphs.graphs(), timing);
        Map<String, ImmutableMap<String, String>> annotations = new LinkedHashMap<>();
        for (FanOut fanOut : FanOuts.of(workflow)) {
            Optional<Duration> longest = Optional.of(Duration.ZERO);
            for (FanOut.Member member : fanOut.members()) {
                Optional<Duration> remaining = locator.remaining(member.nodeId());
                longest = longest.flatMap(so -> remaining.map(each -> each.compareTo(so) > 0 ? each : so));
            }
            annotations.put(DagPlan.fanOutKey(fanOut), hint(workflow, fanOut.groupNodeName(), longest));
        }
        for (WorkflowNode node : workflow.nodes().values()) {
            if (node.type() == NodeType.POD && locator.isPlaced(node)) {
                annotations.put(node.id(), hint(workflow, node.name(), locator.remaining(node.id())));
            }
        }
        return new DagPlan(ImmutableMap.copyOf(annotations), ImmutableList.of());
    }

    private static ImmutableMap<String, String> hint(Workflow workflow, String node, Optional<Duration> remaining) {
        ImmutableMap.Builder<String, String> hint = ImmutableMap.builder();
        hint.put(DagAnnotations.DAG, workflow.namespace() + "/" + workflow.name());
        hint.put(DagAnnotations.NODE, node);
        // whole seconds, rounded up, so a short stage never reads as zero
        remaining.ifPresent(each -> hint.put(DagAnnotations.REMAINING_PATH,
                Long.toString(each.getSeconds() + (each.getNano() > 0 ? 1 : 0))));
        return hint.build();
    }

    private static Optional<Duration> estimate(String template, String text, List<DagProblem> problems) {
        String trimmed = text.trim();
        Duration duration;
        try {
            duration = trimmed.chars().allMatch(Character::isDigit) && !trimmed.isEmpty() && trimmed.length() < 19
                    ? Duration.ofSeconds(Long.parseLong(trimmed)) : GoDuration.parse(trimmed);
        } catch (IllegalArgumentException | ArithmeticException e) {
            problems.add(new DagProblem(template, "", "metadata.annotations." + ArgoTemplate.DURATION_ESTIMATE,
                    "'" + text + "' is not a duration (" + e.getMessage() + ")"));
            return Optional.empty();
        }
        if (duration.isNegative()) {
            problems.add(new DagProblem(template, "", "metadata.annotations." + ArgoTemplate.DURATION_ESTIMATE, "'" + text + "' is negative"));
            return Optional.empty();
        }
        return Optional.of(duration);
    }

    /** Where a status node sits in the templates' graphs, and its remaining critical path. */
    private static final class Locator {
        private final Workflow workflow;
        private final Map<String, TemplateGraphs.TemplateGraph> graphs;
        private final WorkflowTiming timing;

        Locator(Workflow workflow, Map<String, TemplateGraphs.TemplateGraph> graphs, WorkflowTiming timing) {
            this.workflow = workflow;
            this.graphs = graphs;
            this.timing = timing;
        }

        /** A node's place: the template of its boundary and its node in that template's graph. */
        private record Place(WorkflowNode boundary, String template, NodeId node) {}

        boolean isPlaced(WorkflowNode node) {
            return place(node).isPresent();
        }

        Optional<Duration> remaining(String nodeId) {
            Optional<Place> place = workflow.node(nodeId).flatMap(this::place);
            if (place.isEmpty()) {
                return Optional.empty();
            }
            Optional<Duration> own = timing.criticalPath(place.get().template()).map(path -> path.remaining(place.get().node()));
            return own.flatMap(duration -> after(place.get().boundary()).map(duration::plus));
        }

        /** The time left after a DAG or steps node ends: zero for the root, else the rest of its caller's graph. */
        private Optional<Duration> after(WorkflowNode boundary) {
            if (boundary.boundaryId().isEmpty()) {
                return Optional.of(Duration.ZERO);
            }
            Optional<Place> place = place(boundary);
            if (place.isEmpty()) {
                return Optional.empty();
            }
            Optional<CriticalPath> path = timing.criticalPath(place.get().template());
            Optional<Duration> own = timing.nodeDuration(place.get().template(), place.get().node());
            if (path.isEmpty() || own.isEmpty()) {
                return Optional.empty();
            }
            Duration tail = path.get().remaining(place.get().node()).minus(own.get());
            return after(place.get().boundary()).map(tail::plus);
        }

        /**
         * From Argo's node names: a task of DAG node {@code b} is {@code b.task}, a step of steps node
         * {@code b} is {@code b[i].step}, either followed by {@code (...)} when expanded or retried.
         */
        private Optional<Place> place(WorkflowNode node) {
            Optional<WorkflowNode> boundary = workflow.node(node.boundaryId());
            if (boundary.isEmpty() || !node.name().startsWith(boundary.get().name())) {
                return Optional.empty();
            }
            String template = boundary.get().templateName();
            TemplateGraphs.TemplateGraph graph = graphs.get(template);
            String rest = node.name().substring(boundary.get().name().length());
            int suffix = rest.indexOf('(');
            String local = suffix < 0 ? rest : rest.substring(0, suffix);
            if (local.startsWith(".")) {
                local = local.substring(1);
            }
            if (graph == null || local.isEmpty() || !graph.calls().containsKey(NodeId.of(local))) {
                return Optional.empty();
            }
            return Optional.of(new Place(boundary.get(), template, NodeId.of(local)));
        }
    }
}
