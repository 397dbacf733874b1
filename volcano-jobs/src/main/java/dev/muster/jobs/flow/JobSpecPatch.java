package dev.muster.jobs.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.jobs.Fields;
import java.util.Map;
import java.util.Optional;

/**
 * A flow's {@code patch.jobSpec} laid over its template's spec. Volcano's API has the field, but its
 * controller (up to the mirror's HEAD) ignores it; the merge follows Volcano's design for it
 * ({@code docs/design/jobflow/job-template-parameter-overriding.md}):
 *
 * <ul>
 *   <li>a value or a list the patch gives replaces the template's ({@code minAvailable}, {@code queue},
 *       {@code policies}, {@code command}, {@code args}, {@code image}); maps merge key by key
 *       ({@code plugins}, {@code nodeSelector}, labels, {@code resources.requests});
 *   <li>{@code tasks}, {@code containers} and {@code initContainers} are matched by {@code name} and
 *       merged recursively; a patch entry no template entry matches is added;
 *   <li>{@code env} (by {@code name}), pod {@code volumes} (by {@code name}), {@code volumeMounts} and the
 *       job's {@code volumes} (by {@code mountPath}), {@code ports} (by {@code containerPort}),
 *       {@code tolerations} (by {@code key}) and {@code hostAliases} (by {@code ip}) are matched by their
 *       key, and a matched entry is replaced whole;
 *   <li>{@code affinity}, {@code securityContext} and probes are replaced whole;
 *   <li>a {@code null} removes the field (JSON merge patch).
 * </ul>
 *
 * A keyed entry without its key cannot be matched: {@link #problems} names it, and the flow is invalid.
 */
final class JobSpecPatch {
    /** Where in a Job spec a map sits, which decides how its fields merge. */
    private enum Level {
        JOB, TASK, POD_TEMPLATE, POD, CONTAINER, PLAIN
    }

    /** How one field merges: a keyed list (its entries merged at {@code entries}, or replaced whole when empty), or a map at a level. */
    private record Rule(Optional<String> key, Optional<Level> entries, boolean replaceWhole) {
        static final Rule MERGE_PLAIN = new Rule(Optional.empty(), Optional.of(Level.PLAIN), false);
        static final Rule REPLACE = new Rule(Optional.empty(), Optional.empty(), true);

        static Rule keyed(String key, Level entries) {
            return new Rule(Optional.of(key), Optional.of(entries), false);
        }

        static Rule keyedReplace(String key) {
            return new Rule(Optional.of(key), Optional.empty(), false);
        }

        static Rule map(Level level) {
            return new Rule(Optional.empty(), Optional.of(level), false);
        }
    }

    private JobSpecPatch() {}

    /** The template's spec with {@code patch} laid over it; neither argument is changed. */
    static ObjectNode apply(ObjectNode spec, ObjectNode patch) {
        ObjectNode result = spec.deepCopy();
        merge(result, patch, Level.JOB);
        return result;
    }

    /** Keyed entries without their key, each as a problem at its path under {@code path}. */
    static void check(JsonNode patch, String path, Fields reporter) {
        check(patch, path, Level.JOB, reporter);
    }

    private static void check(JsonNode patch, String path, Level level, Fields reporter) {
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            Rule rule = rule(level, field.getKey());
            JsonNode value = field.getValue();
            String child = path + "." + field.getKey();
            if (rule.key().isPresent() && value.isArray()) {
                for (int i = 0; i < value.size(); i++) {
                    JsonNode entry = value.get(i);
                    if (!entry.isObject() || Fields.absent(entry.get(rule.key().get()))) {
                        reporter.problem(child + "[" + i + "]." + rule.key().get(),
                                "missing (a patch entry is matched to the template's by " + rule.key().get() + ")");
                    } else if (rule.entries().isPresent()) {
                        check(entry, child + "[" + i + "]", rule.entries().get(), reporter);
                    }
                }
            } else if (!rule.replaceWhole() && rule.entries().isPresent() && value.isObject()) {
                check(value, child, rule.entries().get(), reporter);
            }
        }
    }

    private static void merge(ObjectNode target, JsonNode patch, Level level) {
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            String name = field.getKey();
            JsonNode value = field.getValue();
            JsonNode current = target.get(name);
            Rule rule = rule(level, name);
            if (value.isNull()) {
                target.remove(name);
            } else if (rule.key().isPresent() && value.isArray() && current != null && current.isArray()) {
                mergeKeyed((ArrayNode) current, (ArrayNode) value, rule);
            } else if (!rule.replaceWhole() && rule.entries().isPresent() && value.isObject() && current != null && current.isObject()) {
                merge((ObjectNode) current, value, rule.entries().get());
            } else {
                target.set(name, value.deepCopy());
            }
        }
    }

    private static void mergeKeyed(ArrayNode current, ArrayNode patch, Rule rule) {
        String key = rule.key().orElseThrow();
        for (JsonNode entry : patch) {
            Optional<ObjectNode> match = find(current, key, entry.path(key));
            if (match.isPresent() && rule.entries().isPresent()) {
                merge(match.get(), entry, rule.entries().get());
            } else if (match.isPresent()) {
                match.get().removeAll();
                match.get().setAll((ObjectNode) entry.deepCopy());
            } else {
                current.add(entry.deepCopy());
            }
        }
    }

    private static Optional<ObjectNode> find(ArrayNode entries, String key, JsonNode value) {
        for (JsonNode entry : entries) {
            if (entry.isObject() && entry.path(key).equals(value)) {
                return Optional.of((ObjectNode) entry);
            }
        }
        return Optional.empty();
    }

    private static Rule rule(Level level, String field) {
        return switch (level) {
            case JOB -> switch (field) {
                case "tasks" -> Rule.keyed("name", Level.TASK);
                case "volumes" -> Rule.keyedReplace("mountPath");
                case "policies" -> Rule.REPLACE;
                default -> Rule.MERGE_PLAIN;
            };
            case TASK -> switch (field) {
                case "template" -> Rule.map(Level.POD_TEMPLATE);
                case "policies", "dependsOn" -> Rule.REPLACE;
                default -> Rule.MERGE_PLAIN;
            };
            case POD_TEMPLATE -> field.equals("spec") ? Rule.map(Level.POD) : Rule.MERGE_PLAIN;
            case POD -> switch (field) {
                case "containers", "initContainers" -> Rule.keyed("name", Level.CONTAINER);
                case "volumes" -> Rule.keyedReplace("name");
                case "tolerations" -> Rule.keyedReplace("key");
                case "hostAliases" -> Rule.keyedReplace("ip");
                case "affinity", "securityContext" -> Rule.REPLACE;
                default -> Rule.MERGE_PLAIN;
            };
            case CONTAINER -> switch (field) {
                case "env" -> Rule.keyedReplace("name");
                case "volumeMounts" -> Rule.keyedReplace("mountPath");
                case "ports" -> Rule.keyedReplace("containerPort");
                case "livenessProbe", "readinessProbe", "startupProbe", "securityContext" -> Rule.REPLACE;
                default -> Rule.MERGE_PLAIN;
            };
            case PLAIN -> Rule.MERGE_PLAIN;
        };
    }
}
