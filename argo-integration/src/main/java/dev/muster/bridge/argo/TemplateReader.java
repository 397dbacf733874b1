package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the shape of a Workflow's templates ({@code spec.templates}, and for a workflow made from a
 * WorkflowTemplate {@code status.storedWorkflowTemplateSpec.templates}, the workflow's own winning): DAG
 * tasks with their {@code dependencies} and {@code depends}, step groups, and each template's duration
 * estimate. A field of the wrong type is a {@link DagProblem} naming the template, the task and the
 * field; it costs the workflow its DAG hints, never its gangs, which {@link WorkflowReader} reads apart.
 */
public final class TemplateReader {
    /** The templates by name, and what could not be read. */
    public record Result(ImmutableMap<String, ArgoTemplate> templates, ImmutableList<DagProblem> problems) {
        public Result {
            templates = ImmutableMap.copyOf(templates);
            problems = ImmutableList.copyOf(problems);
        }
    }

    private final List<DagProblem> problems = new ArrayList<>();

    private TemplateReader() {}

    public static Result read(JsonNode workflow) {
        requireNonNull(workflow, "workflow is null");
        TemplateReader reader = new TemplateReader();
        Map<String, ArgoTemplate> templates = new LinkedHashMap<>();
        reader.readAll(workflow.path("status").path("storedWorkflowTemplateSpec").path("templates"), templates);
        reader.readAll(workflow.path("spec").path("templates"), templates);
        return new Result(ImmutableMap.copyOf(templates), ImmutableList.copyOf(reader.problems));
    }

    private void readAll(JsonNode templates, Map<String, ArgoTemplate> into) {
        if (!templates.isArray()) {
            return;
        }
        for (JsonNode template : templates) {
            if (template.path("name").isTextual()) {
                String name = template.path("name").asText();
                into.put(name, readTemplate(name, template));
            }
        }
    }

    private ArgoTemplate readTemplate(String name, JsonNode template) {
        JsonNode estimate = template.path("metadata").path("annotations").path(ArgoTemplate.DURATION_ESTIMATE);
        Optional<String> durationEstimate = estimate.isTextual() ? Optional.of(estimate.asText()) : Optional.empty();
        ArgoTemplate.Body body;
        if (template.has("dag")) {
            body = readDag(name, template.path("dag").path("tasks"));
        } else if (template.has("steps")) {
            body = readSteps(name, template.path("steps"));
        } else {
            body = new ArgoTemplate.Leaf();
        }
        return new ArgoTemplate(name, body, durationEstimate);
    }

    private ArgoTemplate.Dag readDag(String template, JsonNode tasks) {
        if (!tasks.isArray()) {
            problems.add(new DagProblem(template, "", "dag.tasks", "expected an array, got " + tasks.getNodeType()));
            return new ArgoTemplate.Dag(ImmutableList.of());
        }
        ImmutableList.Builder<ArgoTemplate.DagTask> read = ImmutableList.builder();
        for (int index = 0; index < tasks.size(); index++) {
            JsonNode task = tasks.get(index);
            String path = "dag.tasks[" + index + "]";
            if (!task.path("name").isTextual()) {
                problems.add(new DagProblem(template, "", path + ".name", "missing or not a string"));
                continue;
            }
            String name = task.path("name").asText();
            Optional<String> depends = optionalText(template, name, task, "depends", path);
            ImmutableList<String> dependencies = textList(template, name, task.path("dependencies"), path + ".dependencies");
            if (depends.isPresent() && !dependencies.isEmpty()) {
                problems.add(new DagProblem(template, name, path, "has both dependencies and depends, which Argo does not allow"));
            }
            read.add(new ArgoTemplate.DagTask(index, name, optionalText(template, name, task, "template", path), dependencies, depends));
        }
        return new ArgoTemplate.Dag(read.build());
    }

    private ArgoTemplate.Steps readSteps(String template, JsonNode groups) {
        if (!groups.isArray()) {
            problems.add(new DagProblem(template, "", "steps", "expected an array of step groups, got " + groups.getNodeType()));
            return new ArgoTemplate.Steps(ImmutableList.of());
        }
        ImmutableList.Builder<ImmutableList<ArgoTemplate.Step>> read = ImmutableList.builder();
        for (int group = 0; group < groups.size(); group++) {
            JsonNode steps = groups.get(group);
            if (!steps.isArray()) {
                problems.add(new DagProblem(template, "", "steps[" + group + "]", "expected an array of steps, got " + steps.getNodeType()));
                continue;
            }
            ImmutableList.Builder<ArgoTemplate.Step> inGroup = ImmutableList.builder();
            for (int index = 0; index < steps.size(); index++) {
                JsonNode step = steps.get(index);
                String path = "steps[" + group + "][" + index + "]";
                if (!step.path("name").isTextual()) {
                    problems.add(new DagProblem(template, "", path + ".name", "missing or not a string"));
                    continue;
                }
                String name = step.path("name").asText();
                inGroup.add(new ArgoTemplate.Step(name, optionalText(template, name, step, "template", path)));
            }
            read.add(inGroup.build());
        }
        return new ArgoTemplate.Steps(read.build());
    }

    private Optional<String> optionalText(String template, String task, JsonNode parent, String field, String path) {
        JsonNode value = parent.path(field);
        if (value.isMissingNode() || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            problems.add(new DagProblem(template, task, path + "." + field, "expected a string, got " + value.getNodeType()));
            return Optional.empty();
        }
        return Optional.of(value.asText());
    }

    private ImmutableList<String> textList(String template, String task, JsonNode value, String path) {
        if (value.isMissingNode() || value.isNull()) {
            return ImmutableList.of();
        }
        if (!value.isArray()) {
            problems.add(new DagProblem(template, task, path, "expected an array, got " + value.getNodeType()));
            return ImmutableList.of();
        }
        ImmutableList.Builder<String> items = ImmutableList.builder();
        for (int index = 0; index < value.size(); index++) {
            if (value.get(index).isTextual()) {
                items.add(value.get(index).asText());
            } else {
                problems.add(new DagProblem(template, task, path + "[" + index + "]", "expected a string, got " + value.get(index).getNodeType()));
            }
        }
        return items.build();
    }
}
