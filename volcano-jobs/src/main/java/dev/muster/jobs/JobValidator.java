package dev.muster.jobs;

import com.google.common.collect.ImmutableList;
import dev.muster.graph.Condition;
import dev.muster.graph.GraphBuilder;
import dev.muster.graph.GraphProblem;
import dev.muster.graph.JobGraph;
import dev.muster.graph.Join;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The checks Volcano's admission webhook makes on a Job's spec that the reader cannot make field by
 * field: minimums against replicas, templates, task names, and task dependencies (unknown tasks and
 * cycles, named by {@code dev.muster.graph}). Each problem names the field and the bad value.
 */
public final class JobValidator {
    private JobValidator() {}

    /** Every problem of the spec, empty when it is valid; each problem reads {@code <field>: <what is wrong>}. */
    public static ImmutableList<String> validate(VolcanoJobSpec spec) {
        ImmutableList.Builder<String> problems = ImmutableList.builder();
        if (spec.tasks().isEmpty()) {
            problems.add("spec.tasks: a job needs at least one task");
        }
        int replicas = spec.totalReplicas();
        if (spec.minAvailable() > replicas) {
            problems.add("spec.minAvailable: " + spec.minAvailable() + " exceeds the " + replicas + " replicas of all tasks");
        }
        spec.minSuccess().ifPresent(minSuccess -> {
            if (minSuccess > replicas) {
                problems.add("spec.minSuccess: " + minSuccess + " exceeds the " + replicas + " replicas of all tasks");
            }
        });
        Set<String> names = new HashSet<>();
        List<TaskSpec> tasks = spec.tasks();
        for (int i = 0; i < tasks.size(); i++) {
            TaskSpec task = tasks.get(i);
            String path = "spec.tasks[" + i + "]";
            if (!names.add(task.name())) {
                problems.add(path + ".name: duplicate task name '" + task.name() + "'");
            }
            if (task.template().getSpec() == null) {
                problems.add(path + ".template: task '" + task.name() + "' has no pod template");
            } else if (task.template().getSpec().getContainers() == null || task.template().getSpec().getContainers().isEmpty()) {
                problems.add(path + ".template.spec.containers: task '" + task.name() + "' has no containers");
            }
            task.minAvailable().ifPresent(minAvailable -> {
                if (minAvailable > task.replicas()) {
                    problems.add(path + ".minAvailable: " + minAvailable + " exceeds the task's " + task.replicas() + " replicas");
                }
            });
        }
        dependencyGraph(spec, Condition.RUNNING).validate()
                .forEach(problem -> problems.add("spec.tasks[].dependsOn: " + describe(problem)));
        return problems.build();
    }

    /** The tasks as a graph whose edges need {@code condition} of the parent task; not yet validated. */
    public static GraphBuilder dependencyGraph(VolcanoJobSpec spec, Condition condition) {
        GraphBuilder graph = JobGraph.builder();
        Set<String> declared = new HashSet<>();
        for (TaskSpec task : spec.tasks()) {
            if (declared.add(task.name())) {
                graph.node(task.name(), task.dependsOn().map(DependsOn::iteration).orElse(Join.ALL));
            }
            task.dependsOn().ifPresent(dependsOn ->
                    dependsOn.names().forEach(parent -> graph.edge(parent, task.name(), condition)));
        }
        return graph;
    }

    private static String describe(GraphProblem problem) {
        if (problem instanceof GraphProblem.UnknownNode unknown) {
            return "task '" + unknown.edge().child() + "' depends on unknown task '" + unknown.node() + "'";
        }
        if (problem instanceof GraphProblem.SelfEdge self) {
            return "task '" + self.node() + "' depends on itself";
        }
        return problem.message();
    }
}
