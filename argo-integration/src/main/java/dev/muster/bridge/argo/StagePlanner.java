package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.Resources;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Pure: the {@link WorkflowStages} of a workflow from its templates. The entrypoint's stages are its step
 * groups (each step group runs once the one before has ended) or its DAG's levels (a task's level is one
 * more than the deepest task it depends on; a dependency that does not parse or names no task is left
 * out, which puts the task in an earlier, wider level, never a narrower one). A stage runs each of its
 * steps or tasks as many times as its {@code withItems} or {@code withSequence} says; a container,
 * script or containerSet template is one pod of its requests; a steps or DAG template counts its widest
 * stage. A {@code withParam}, a {@code templateRef}, an inline template or a template that calls itself
 * cannot be counted before the workflow runs: they count as one (or nothing) and are named in
 * {@link WorkflowStages#uncounted()}.
 */
public final class StagePlanner {
    private final Map<String, ArgoTemplate> templates;
    private final Set<String> uncounted = new LinkedHashSet<>();
    private final Map<String, StageDemand> peaks = new HashMap<>();
    private final Deque<String> calling = new ArrayDeque<>();

    private StagePlanner(Map<String, ArgoTemplate> templates) {
        this.templates = requireNonNull(templates, "templates is null");
    }

    public static WorkflowStages plan(Map<String, ArgoTemplate> templates, String entrypoint) {
        requireNonNull(entrypoint, "entrypoint is null");
        StagePlanner planner = new StagePlanner(templates);
        List<StageDemand> stages = planner.stages(entrypoint);
        Resources need = Resources.EMPTY;
        for (StageDemand stage : stages) {
            need = need.max(stage.request());
        }
        return new WorkflowStages(ImmutableList.copyOf(stages), need, ImmutableList.copyOf(planner.uncounted));
    }

    private List<StageDemand> stages(String name) {
        ArgoTemplate template = templates.get(name);
        if (template == null) {
            uncounted.add("template '" + name + "' is not in the workflow");
            return List.of();
        }
        calling.push(name);
        try {
            if (template.body() instanceof ArgoTemplate.Steps steps) {
                return stepGroups(name, steps);
            }
            if (template.body() instanceof ArgoTemplate.Dag dag) {
                return dagLevels(name, dag);
            }
            return List.of(new StageDemand(name, 1, ((ArgoTemplate.Leaf) template.body()).podRequest()));
        } finally {
            calling.pop();
        }
    }

    private List<StageDemand> stepGroups(String name, ArgoTemplate.Steps steps) {
        List<StageDemand> stages = new ArrayList<>();
        for (int group = 0; group < steps.groups().size(); group++) {
            String stage = name + "[" + group + "]";
            StageDemand demand = new StageDemand(stage, 0, Resources.EMPTY);
            for (ArgoTemplate.Step step : steps.groups().get(group)) {
                demand = plus(demand, times(call(stage + "." + step.name(), step.template()), step.width(), stage + "." + step.name()));
            }
            stages.add(demand);
        }
        return stages;
    }

    private List<StageDemand> dagLevels(String name, ArgoTemplate.Dag dag) {
        Map<String, ArgoTemplate.DagTask> byName = new HashMap<>();
        dag.tasks().forEach(task -> byName.put(task.name(), task));
        Map<String, Integer> levels = new HashMap<>();
        dag.tasks().forEach(task -> level(task, byName, levels, new HashSet<>()));
        int deepest = levels.values().stream().mapToInt(Integer::intValue).max().orElse(-1);
        List<StageDemand> stages = new ArrayList<>();
        for (int level = 0; level <= deepest; level++) {
            String stage = name + " level " + level;
            StageDemand demand = new StageDemand(stage, 0, Resources.EMPTY);
            for (ArgoTemplate.DagTask task : dag.tasks()) {
                if (levels.get(task.name()) == level) {
                    String path = name + "." + task.name();
                    demand = plus(demand, times(call(path, task.template()), task.width(), path));
                }
            }
            stages.add(demand);
        }
        return stages;
    }

    private static int level(ArgoTemplate.DagTask task, Map<String, ArgoTemplate.DagTask> byName, Map<String, Integer> levels, Set<String> visiting) {
        Integer known = levels.get(task.name());
        if (known != null) {
            return known;
        }
        if (!visiting.add(task.name())) {
            // a cycle, which Argo refuses: the task is counted with the first stage
            return -1;
        }
        int level = 0;
        for (String parent : parents(task)) {
            ArgoTemplate.DagTask parentTask = byName.get(parent);
            if (parentTask != null) {
                level = Math.max(level, level(parentTask, byName, levels, visiting) + 1);
            }
        }
        levels.put(task.name(), level);
        return level;
    }

    private static Set<String> parents(ArgoTemplate.DagTask task) {
        if (task.depends().isEmpty() || task.depends().get().isBlank()) {
            return new LinkedHashSet<>(task.dependencies());
        }
        try {
            return DependsParser.parse(task.depends().get()).tasks();
        } catch (DependsParser.SyntaxException e) {
            return Set.of();
        }
    }

    /** What one run of the called template needs at once: a pod's request, or a nested template's widest stage. */
    private StageDemand call(String path, Optional<String> called) {
        if (called.isEmpty()) {
            uncounted.add(path + ": a templateRef or inline template counts as nothing");
            return new StageDemand(path, 0, Resources.EMPTY);
        }
        String name = called.get();
        if (calling.contains(name)) {
            uncounted.add(path + ": template '" + name + "' calls itself; counted once");
            return new StageDemand(path, 0, Resources.EMPTY);
        }
        StageDemand peak = peaks.get(name);
        if (peak == null) {
            List<StageDemand> stages = stages(name);
            int pods = 0;
            Resources request = Resources.EMPTY;
            for (StageDemand stage : stages) {
                pods = Math.max(pods, stage.pods());
                request = request.max(stage.request());
            }
            peak = new StageDemand(name, pods, request);
            peaks.put(name, peak);
        }
        return peak;
    }

    private StageDemand times(StageDemand demand, ArgoTemplate.Width width, String path) {
        if (!width.known()) {
            uncounted.add(path + ": its fan-out (withParam) is known only when it runs; counted as one");
        }
        Resources request = Resources.EMPTY;
        for (int run = 0; run < width.count(); run++) {
            request = request.add(demand.request());
        }
        return new StageDemand(demand.stage(), demand.pods() * width.count(), request);
    }

    private static StageDemand plus(StageDemand stage, StageDemand more) {
        return new StageDemand(stage.stage(), stage.pods() + more.pods(), stage.request().add(more.request()));
    }
}
