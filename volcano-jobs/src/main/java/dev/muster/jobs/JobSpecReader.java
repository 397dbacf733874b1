package dev.muster.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.graph.Join;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Reads a Volcano {@code JobSpec} (a Job's or a JobTemplate's {@code spec}) strictly and applies
 * the defaults Volcano's admission webhook would: queue {@code default}, scheduler {@code volcano},
 * maxRetry 3, task names {@code default<i>}, minAvailable the sum of the tasks' minimums, and the
 * {@code svc} plugin for tensorflow, pytorch, mpi and ray jobs ({@code ssh} too for mpi).
 */
public final class JobSpecReader {
    public static final String DEFAULT_SCHEDULER_NAME = "volcano";

    private static final ImmutableSet<String> SPEC_FIELDS = ImmutableSet.of("schedulerName", "minAvailable", "volumes", "tasks",
            "policies", "plugins", "runningEstimate", "queue", "maxRetry", "ttlSecondsAfterFinished", "priorityClassName", "minSuccess",
            "networkTopology");
    private static final ImmutableSet<String> TASK_FIELDS = ImmutableSet.of("name", "replicas", "minAvailable", "template", "policies",
            "topologyPolicy", "maxRetry", "dependsOn", "partitionPolicy");
    private static final ImmutableSet<String> POLICY_FIELDS = ImmutableSet.of("action", "event", "events", "exitCode", "timeout");
    private static final ImmutableSet<String> DEPENDS_ON_FIELDS = ImmutableSet.of("name", "iteration");
    private static final ImmutableSet<String> TOPOLOGY_POLICIES = ImmutableSet.of("none", "best-effort", "restricted", "single-numa-node");
    private static final ImmutableSet<String> FRAMEWORK_PLUGINS = ImmutableSet.of("tensorflow", "pytorch", "mpi", "ray");
    private static final ObjectMapper JSON = new ObjectMapper();

    private JobSpecReader() {}

    /** The spec at {@code path} of a manifest; problems are added to {@code problems}. */
    public static VolcanoJobSpec read(JsonNode node, String path, List<String> problems) {
        Fields spec = Fields.of(node, path, problems, SPEC_FIELDS);
        for (String unsupported : ImmutableList.of("volumes", "networkTopology")) {
            if (!Fields.absent(spec.get(unsupported))) {
                spec.problem(spec.child(unsupported), "not supported by Muster yet");
            }
        }
        ImmutableList<JsonNode> taskNodes = spec.list("tasks");
        ImmutableList.Builder<TaskSpec> tasks = ImmutableList.builder();
        for (int i = 0; i < taskNodes.size(); i++) {
            readTask(taskNodes.get(i), spec.child("tasks") + "[" + i + "]", i, problems).ifPresent(tasks::add);
        }
        ImmutableList<TaskSpec> taskList = tasks.build();
        int taskMinimum = taskList.stream().mapToInt(TaskSpec::minMember).sum();
        OptionalInt minAvailable = spec.count("minAvailable");
        int maxRetry = spec.count("maxRetry").orElse(0);
        return new VolcanoJobSpec(
                spec.string("schedulerName").filter(name -> !name.isEmpty()).orElse(DEFAULT_SCHEDULER_NAME),
                minAvailable.isPresent() && minAvailable.getAsInt() > 0 ? minAvailable.getAsInt() : taskMinimum,
                spec.string("queue").filter(queue -> !queue.isEmpty()).orElse(VolcanoJobSpec.DEFAULT_QUEUE),
                maxRetry == 0 ? VolcanoJobSpec.DEFAULT_MAX_RETRY : maxRetry,
                spec.count("ttlSecondsAfterFinished"),
                spec.string("priorityClassName").orElse(""),
                positive(spec, "minSuccess"),
                taskList,
                readPolicies(spec, "policies"),
                readPlugins(spec),
                spec.duration("runningEstimate"));
    }

    private static OptionalInt positive(Fields fields, String field) {
        OptionalInt value = fields.integer(field);
        if (value.isPresent() && value.getAsInt() < 1) {
            fields.problem(fields.child(field), value.getAsInt() + " is less than 1");
            return OptionalInt.empty();
        }
        return value;
    }

    private static Optional<TaskSpec> readTask(JsonNode node, String path, int index, List<String> problems) {
        int before = problems.size();
        Fields task = Fields.of(node, path, problems, TASK_FIELDS);
        if (!Fields.absent(task.get("partitionPolicy"))) {
            task.problem(task.child("partitionPolicy"), "not supported by Muster yet");
        }
        String name = task.string("name").filter(value -> !value.isEmpty()).orElse("default" + index);
        int replicas = task.count("replicas").orElse(0);
        OptionalInt minAvailable = task.count("minAvailable");
        Optional<PodTemplateSpec> template = readTemplate(task);
        String topologyPolicy = task.string("topologyPolicy").orElse("");
        if (!topologyPolicy.isEmpty() && !TOPOLOGY_POLICIES.contains(topologyPolicy)) {
            task.problem(task.child("topologyPolicy"), "unknown policy '" + topologyPolicy + "' (known: " + String.join(", ", TOPOLOGY_POLICIES) + ")");
        }
        int maxRetry = task.integer("maxRetry").orElse(0);
        Optional<DependsOn> dependsOn = readDependsOn(task);
        ImmutableList<LifecyclePolicy> policies = readPolicies(task, "policies");
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new TaskSpec(name, replicas,
                minAvailable.isPresent() ? Optional.of(minAvailable.getAsInt()) : Optional.empty(),
                template.orElseGet(PodTemplateSpec::new), policies,
                maxRetry == 0 ? TaskSpec.DEFAULT_MAX_RETRY : maxRetry, dependsOn, topologyPolicy));
    }

    /** The template as fabric8 reads it; a missing template reads as empty, which the validator reports. */
    private static Optional<PodTemplateSpec> readTemplate(Fields task) {
        JsonNode template = task.get("template");
        if (Fields.absent(template)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.treeToValue(template, PodTemplateSpec.class));
        } catch (JsonProcessingException e) {
            task.problem(task.child("template"), "not a pod template: " + e.getOriginalMessage());
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            task.problem(task.child("template"), "not a pod template: " + e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<DependsOn> readDependsOn(Fields task) {
        JsonNode node = task.get("dependsOn");
        if (Fields.absent(node)) {
            return Optional.empty();
        }
        Fields dependsOn = Fields.of(node, task.child("dependsOn"), task.problems(), DEPENDS_ON_FIELDS);
        ImmutableList<String> names = dependsOn.strings("name");
        String iteration = dependsOn.string("iteration").orElse("all");
        Join join = switch (iteration) {
            case "all", "" -> Join.ALL;
            case "any" -> Join.ANY;
            default -> {
                dependsOn.problem(dependsOn.child("iteration"), "unknown iteration '" + iteration + "' (known: all, any)");
                yield Join.ALL;
            }
        };
        if (names.isEmpty()) {
            dependsOn.problem(dependsOn.child("name"), "names no task");
            return Optional.empty();
        }
        return Optional.of(new DependsOn(names, join));
    }

    private static ImmutableList<LifecyclePolicy> readPolicies(Fields owner, String field) {
        ImmutableList<JsonNode> nodes = owner.list(field);
        ImmutableList.Builder<LifecyclePolicy> policies = ImmutableList.builder();
        for (int i = 0; i < nodes.size(); i++) {
            readPolicy(Fields.of(nodes.get(i), owner.child(field) + "[" + i + "]", owner.problems(), POLICY_FIELDS)).ifPresent(policies::add);
        }
        return policies.build();
    }

    private static Optional<LifecyclePolicy> readPolicy(Fields policy) {
        Set<JobEvent> events = new LinkedHashSet<>();
        Optional<String> single = policy.string("event");
        single.ifPresent(name -> event(policy, policy.child("event"), name).ifPresent(events::add));
        ImmutableList<String> many = policy.strings("events");
        for (int i = 0; i < many.size(); i++) {
            event(policy, policy.child("events") + "[" + i + "]", many.get(i)).ifPresent(events::add);
        }
        OptionalInt exitCode = policy.integer("exitCode");
        if (exitCode.isPresent() && exitCode.getAsInt() == 0) {
            policy.problem(policy.child("exitCode"), "0 is not a failure exit code");
        }
        if (exitCode.isPresent() && (single.isPresent() || !many.isEmpty())) {
            policy.problem(policy.child("exitCode"), "a policy has either events or an exit code, not both");
        }
        Optional<String> actionName = policy.string("action");
        Optional<JobAction> action = actionName.flatMap(JobAction::fromWireName).filter(JobAction::usableInPolicies);
        if (actionName.isEmpty()) {
            policy.problem(policy.child("action"), "missing");
        } else if (action.isEmpty()) {
            policy.problem(policy.child("action"), "unknown action '" + actionName.get() + "' (known: "
                    + String.join(", ", Arrays.stream(JobAction.values()).filter(JobAction::usableInPolicies).map(JobAction::wireName).toList()) + ")");
        }
        if (events.isEmpty() && exitCode.isEmpty() && single.isEmpty() && many.isEmpty()) {
            policy.problem(policy.child("event"), "a policy needs an event or an exit code");
        }
        Optional<Duration> timeout = policy.duration("timeout");
        if (action.isEmpty() || (events.isEmpty() && exitCode.isEmpty())) {
            return Optional.empty();
        }
        return Optional.of(new LifecyclePolicy(ImmutableSet.copyOf(events), exitCode, action.get(), timeout));
    }

    private static Optional<JobEvent> event(Fields policy, String path, String name) {
        Optional<JobEvent> event = JobEvent.fromWireName(name).filter(JobEvent::usableInPolicies);
        if (event.isEmpty()) {
            policy.problem(path, "unknown event '" + name + "' (known: "
                    + String.join(", ", Arrays.stream(JobEvent.values()).filter(JobEvent::usableInPolicies).map(JobEvent::wireName).toList()) + ")");
        }
        return event;
    }

    private static ImmutableMap<String, ImmutableList<String>> readPlugins(Fields spec) {
        JsonNode node = spec.get("plugins");
        Map<String, ImmutableList<String>> plugins = new LinkedHashMap<>();
        if (!Fields.absent(node)) {
            Fields pluginFields = Fields.of(node, spec.child("plugins"), spec.problems(), ImmutableSet.copyOf(node.isObject() ? ImmutableList.copyOf(node.fieldNames()) : ImmutableList.of()));
            if (node.isObject()) {
                node.fieldNames().forEachRemaining(name -> plugins.put(name, pluginFields.strings(name)));
            }
        }
        if (plugins.keySet().stream().anyMatch(FRAMEWORK_PLUGINS::contains)) {
            plugins.putIfAbsent("svc", ImmutableList.of());
        }
        if (plugins.containsKey("mpi")) {
            plugins.putIfAbsent("ssh", ImmutableList.of());
        }
        return ImmutableMap.copyOf(plugins);
    }
}
