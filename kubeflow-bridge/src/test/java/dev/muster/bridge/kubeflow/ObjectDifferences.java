package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Field-by-field differences between what Muster planned and what a peer made, as JSON: every field
 * present on one side only or with another value, named by its path ({@code spec.containers[0].env[2].value}).
 * Both sides are first made comparable the same way: without {@code status} (what the kubelet and the
 * scheduler write, not the creator) and without null, empty objects and empty arrays (the API server
 * and Go's encoding treat them as absent).
 */
final class ObjectDifferences {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One difference; a side is empty where the field is absent. */
    record Difference(String path, Optional<JsonNode> planned, Optional<JsonNode> made) {
        Difference {
            requireNonNull(path, "path is null");
            requireNonNull(planned, "planned is null");
            requireNonNull(made, "made is null");
        }

        @Override
        public String toString() {
            return path + ": Muster " + planned.map(JsonNode::toString).orElse("(absent)") + ", operator "
                    + made.map(JsonNode::toString).orElse("(absent)");
        }
    }

    /**
     * A difference the comparison accepts: a field the API server or a peer adds to what the creator sent,
     * absent in Muster's plan, at a path matching {@code pattern}, for {@code reason}.
     */
    record Accepted(Pattern pattern, String reason) {
        Accepted {
            requireNonNull(pattern, "pattern is null");
            requireNonNull(reason, "reason is null");
        }

        static Accepted added(String pathRegex, String reason) {
            return new Accepted(Pattern.compile(pathRegex), reason);
        }

        boolean accepts(Difference difference) {
            return difference.planned().isEmpty() && pattern.matcher(difference.path()).matches();
        }
    }

    private ObjectDifferences() {}

    /** The differences of two objects that no rule of {@code accepted} accepts. */
    static List<Difference> unaccepted(Object planned, Object made, List<Accepted> accepted) {
        List<Difference> differences = new ArrayList<>();
        compare("", comparable(JSON.valueToTree(planned)), comparable(JSON.valueToTree(made)), differences);
        return differences.stream().filter(difference -> accepted.stream().noneMatch(rule -> rule.accepts(difference))).toList();
    }

    /** A copy without {@code status}, nulls, empty objects and empty arrays. */
    static JsonNode comparable(JsonNode node) {
        JsonNode copy = node.deepCopy();
        if (copy.isObject()) {
            ((ObjectNode) copy).remove("status");
        }
        prune(copy);
        return copy;
    }

    private static boolean prune(JsonNode node) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                if (prune(fields.next().getValue())) {
                    fields.remove();
                }
            }
            return node.isEmpty();
        }
        if (node.isArray()) {
            Iterator<JsonNode> elements = node.elements();
            while (elements.hasNext()) {
                if (prune(elements.next())) {
                    elements.remove();
                }
            }
            return node.isEmpty();
        }
        return node.isNull();
    }

    private static void compare(String path, JsonNode planned, JsonNode made, List<Difference> differences) {
        if (planned.isObject() && made.isObject()) {
            TreeSet<String> names = new TreeSet<>();
            planned.fieldNames().forEachRemaining(names::add);
            made.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                compareChild(path.isEmpty() ? name : path + "." + name, planned.get(name), made.get(name), differences);
            }
        } else if (planned.isArray() && made.isArray()) {
            for (int i = 0; i < Math.max(planned.size(), made.size()); i++) {
                compareChild(path + "[" + i + "]", planned.get(i), made.get(i), differences);
            }
        } else if (!planned.equals(made)) {
            differences.add(new Difference(path, Optional.of(planned), Optional.of(made)));
        }
    }

    private static void compareChild(String path, JsonNode planned, JsonNode made, List<Difference> differences) {
        if (planned == null || made == null) {
            differences.add(new Difference(path, Optional.ofNullable(planned), Optional.ofNullable(made)));
        } else {
            compare(path, planned, made, differences);
        }
    }

    /** A Service's ports in name order: the operator adds them ranging over a Go map, in no order. */
    static JsonNode withPortsByName(JsonNode service) {
        JsonNode copy = service.deepCopy();
        JsonNode ports = copy.path("spec").path("ports");
        if (ports.isArray()) {
            List<JsonNode> sorted = new ArrayList<>();
            ports.forEach(sorted::add);
            sorted.sort((a, b) -> a.path("name").asText().compareTo(b.path("name").asText()));
            ArrayNode replaced = ((ObjectNode) copy.path("spec")).putArray("ports");
            sorted.forEach(replaced::add);
        }
        return copy;
    }
}
