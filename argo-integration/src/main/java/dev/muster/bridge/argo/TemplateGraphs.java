package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.graph.Condition;
import dev.muster.graph.Dependency;
import dev.muster.graph.GraphBuilder;
import dev.muster.graph.GraphProblem;
import dev.muster.graph.JobGraph;
import dev.muster.graph.Join;
import dev.muster.graph.NodeId;
import dev.muster.graph.NodeState;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link JobGraph} per DAG or steps template. A DAG template's nodes are its task names, with an edge
 * from each task its {@code depends} (or {@code dependencies}) names, whose {@link Condition} is the
 * results of that task that can make the expression true; a node whose expression is an {@code ||} at
 * the top joins {@link Join#ANY}, else {@link Join#ALL}. A steps template's nodes are {@code [i].name}
 * (Argo's node names for step {@code name} of group {@code i}), each step waiting for every step of
 * the group before. Argo decides when a task runs from its own expression; the graph is for the order
 * and the critical path, on which every edge counts.
 */
public final class TemplateGraphs {
    /**
     * One template's graph.
     *
     * @param calls per node, the local template it runs; empty for a {@code templateRef}
     */
    public record TemplateGraph(String template, JobGraph graph, ImmutableMap<NodeId, Optional<String>> calls) {
        public TemplateGraph {
            requireNonNull(template, "template is null");
            requireNonNull(graph, "graph is null");
            calls = ImmutableMap.copyOf(calls);
        }
    }

    /** The graphs of every DAG and steps template that is valid, and every problem found. */
    public record Result(ImmutableMap<String, TemplateGraph> graphs, ImmutableList<DagProblem> problems) {
        public Result {
            graphs = ImmutableMap.copyOf(graphs);
            problems = ImmutableList.copyOf(problems);
        }
    }

    private TemplateGraphs() {}

    public static Result of(Map<String, ArgoTemplate> templates) {
        Map<String, TemplateGraph> graphs = new LinkedHashMap<>();
        List<DagProblem> problems = new ArrayList<>();
        for (ArgoTemplate template : templates.values()) {
            List<DagProblem> found = new ArrayList<>();
            Optional<TemplateGraph> graph;
            if (template.body() instanceof ArgoTemplate.Dag dag) {
                graph = dagGraph(template.name(), dag, found);
            } else if (template.body() instanceof ArgoTemplate.Steps steps) {
                graph = stepsGraph(template.name(), steps, found);
            } else {
                graph = Optional.empty();
            }
            problems.addAll(found);
            graph.filter(ignored -> found.isEmpty()).ifPresent(each -> graphs.put(template.name(), each));
        }
        return new Result(ImmutableMap.copyOf(graphs), ImmutableList.copyOf(problems));
    }

    private static Optional<TemplateGraph> dagGraph(String template, ArgoTemplate.Dag dag, List<DagProblem> problems) {
        GraphBuilder builder = JobGraph.builder();
        Map<NodeId, Optional<String>> calls = new LinkedHashMap<>();
        Set<String> names = dag.tasks().stream().map(ArgoTemplate.DagTask::name).collect(ImmutableSet.toImmutableSet());
        for (ArgoTemplate.DagTask task : dag.tasks()) {
            String path = "dag.tasks[" + task.index() + "]";
            Optional<DependsExpression> expression = expression(template, task, path, problems);
            builder.node(NodeId.of(task.name()), expression.filter(DependsExpression.Or.class::isInstance).isPresent() ? Join.ANY : Join.ALL);
            calls.put(NodeId.of(task.name()), task.template());
            if (expression.isEmpty()) {
                continue;
            }
            String field = task.depends().isPresent() ? path + ".depends" : path + ".dependencies";
            for (String parent : expression.get().tasks()) {
                if (!names.contains(parent)) {
                    problems.add(new DagProblem(template, task.name(), field, "unknown task '" + parent + "' (tasks: " + String.join(", ", names) + ")"));
                    continue;
                }
                builder.dependency(new Dependency(NodeId.of(parent), NodeId.of(task.name()), condition(expression.get().resultsWanted(parent))));
            }
        }
        return build(template, "dag.tasks", builder, calls, problems);
    }

    private static Optional<DependsExpression> expression(String template, ArgoTemplate.DagTask task, String path, List<DagProblem> problems) {
        if (task.depends().isPresent()) {
            String text = task.depends().get();
            if (text.isBlank()) {
                return Optional.empty();
            }
            try {
                return Optional.of(DependsParser.parse(text));
            } catch (DependsParser.SyntaxException e) {
                problems.add(new DagProblem(template, task.name(), path + ".depends", "'" + text + "': " + e.getMessage()));
                return Optional.empty();
            }
        }
        Optional<DependsExpression> conjunction = Optional.empty();
        for (String dependency : task.dependencies()) {
            DependsExpression bare = new DependsExpression.Result(dependency, Optional.empty());
            conjunction = Optional.of(conjunction.<DependsExpression>map(left -> new DependsExpression.And(left, bare)).orElse(bare));
        }
        return conjunction;
    }

    private static Condition condition(Set<TaskResult> results) {
        Set<NodeState> states = EnumSet.noneOf(NodeState.class);
        results.forEach(result -> states.add(result.state()));
        return new Condition(ImmutableSet.copyOf(states));
    }

    private static Optional<TemplateGraph> stepsGraph(String template, ArgoTemplate.Steps steps, List<DagProblem> problems) {
        GraphBuilder builder = JobGraph.builder();
        Map<NodeId, Optional<String>> calls = new LinkedHashMap<>();
        List<NodeId> previous = List.of();
        for (int group = 0; group < steps.groups().size(); group++) {
            List<NodeId> current = new ArrayList<>();
            for (ArgoTemplate.Step step : steps.groups().get(group)) {
                NodeId node = NodeId.of("[" + group + "]." + step.name());
                builder.node(node, Join.ALL);
                calls.put(node, step.template());
                current.add(node);
                for (NodeId parent : previous) {
                    builder.dependency(new Dependency(parent, node, Condition.SUCCEEDED_OR_SKIPPED));
                }
            }
            if (!current.isEmpty()) {
                previous = current;
            }
        }
        return build(template, "steps", builder, calls, problems);
    }

    private static Optional<TemplateGraph> build(String template, String field, GraphBuilder builder, Map<NodeId, Optional<String>> calls,
            List<DagProblem> problems) {
        ImmutableList<GraphProblem> graphProblems = builder.validate();
        // unknown parents are reported above with their task and field; the graph never sees them
        graphProblems.forEach(problem -> problems.add(new DagProblem(template, "", field, problem.message())));
        return graphProblems.isEmpty() ? Optional.of(new TemplateGraph(template, builder.build(), ImmutableMap.copyOf(calls))) : Optional.empty();
    }
}
