package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.cache.QuantityFields;
import dev.muster.engine.model.Resources;
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
    /**
     * The templates by name, and what could not be read.
     *
     * @param problems what costs the workflow its DAG hints
     * @param stageProblems what costs it admission only (a request that is not a quantity, a {@code withItems}
     *     that is not a list), each naming the template, the field and the value
     */
    public record Result(ImmutableMap<String, ArgoTemplate> templates, ImmutableList<DagProblem> problems, ImmutableList<String> stageProblems) {
        public Result {
            templates = ImmutableMap.copyOf(templates);
            problems = ImmutableList.copyOf(problems);
            stageProblems = ImmutableList.copyOf(stageProblems);
        }
    }

    private final List<DagProblem> problems = new ArrayList<>();
    private final List<String> stageProblems = new ArrayList<>();

    private TemplateReader() {}

    public static Result read(JsonNode workflow) {
        requireNonNull(workflow, "workflow is null");
        TemplateReader reader = new TemplateReader();
        Map<String, ArgoTemplate> templates = new LinkedHashMap<>();
        reader.readAll(workflow.path("status").path("storedWorkflowTemplateSpec").path("templates"), templates);
        reader.readAll(workflow.path("spec").path("templates"), templates);
        return new Result(ImmutableMap.copyOf(templates), ImmutableList.copyOf(reader.problems), ImmutableList.copyOf(reader.stageProblems));
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
            body = new ArgoTemplate.Leaf(podRequest(name, template));
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
            read.add(new ArgoTemplate.DagTask(index, name, optionalText(template, name, task, "template", path), dependencies, depends,
                    width(template, name, task, path)));
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
                inGroup.add(new ArgoTemplate.Step(name, optionalText(template, name, step, "template", path), width(template, name, step, path)));
            }
            read.add(inGroup.build());
        }
        return new ArgoTemplate.Steps(read.build());
    }

    private ArgoTemplate.Width width(String template, String task, JsonNode step, String path) {
        JsonNode items = step.path("withItems");
        if (!items.isMissingNode() && !items.isNull()) {
            if (!items.isArray()) {
                stageProblems.add("template '" + template + "', step '" + task + "': " + path + ".withItems: expected an array, got "
                        + items.getNodeType());
                return ArgoTemplate.Width.ONE;
            }
            return new ArgoTemplate.Width(items.size(), true);
        }
        JsonNode sequence = step.path("withSequence");
        if (sequence.isObject()) {
            return sequenceWidth(sequence);
        }
        JsonNode param = step.path("withParam");
        return param.isMissingNode() || param.isNull() ? ArgoTemplate.Width.ONE : new ArgoTemplate.Width(1, false);
    }

    /** {@code count}, or {@code end - start + 1} (start 0 by default), when they are numbers; else known only at run time. */
    private static ArgoTemplate.Width sequenceWidth(JsonNode sequence) {
        Optional<Integer> count = literal(sequence.path("count"));
        if (count.isPresent()) {
            return new ArgoTemplate.Width(Math.max(count.get(), 0), true);
        }
        Optional<Integer> start = sequence.has("start") ? literal(sequence.path("start")) : Optional.of(0);
        Optional<Integer> end = literal(sequence.path("end"));
        if (start.isPresent() && end.isPresent()) {
            return new ArgoTemplate.Width(Math.abs(end.get() - start.get()) + 1, true);
        }
        return new ArgoTemplate.Width(1, false);
    }

    private static Optional<Integer> literal(JsonNode value) {
        if (value.isInt()) {
            return Optional.of(value.asInt());
        }
        if (value.isTextual() && value.asText().matches("-?[0-9]{1,9}")) {
            return Optional.of(Integer.parseInt(value.asText()));
        }
        return Optional.empty();
    }

    private Resources podRequest(String template, JsonNode body) {
        Resources request = Resources.EMPTY;
        for (String container : List.of("container", "script")) {
            request = request.add(requests(template, body.path(container).path("resources").path("requests"), container + ".resources.requests"));
        }
        JsonNode set = body.path("containerSet").path("containers");
        for (int index = 0; index < set.size(); index++) {
            request = request.add(requests(template, set.get(index).path("resources").path("requests"),
                    "containerSet.containers[" + index + "].resources.requests"));
        }
        return request;
    }

    /** A container's requests as the scheduler will count its pod's ({@link QuantityFields}); a bad entry costs admission only. */
    private Resources requests(String template, JsonNode list, String path) {
        return QuantityFields.resources(list, path, (field, message) -> stageProblems.add("template '" + template + "': " + field + ": " + message));
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
