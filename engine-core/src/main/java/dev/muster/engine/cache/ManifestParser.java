package dev.muster.engine.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.yaml.Positions;
import dev.muster.engine.yaml.ReadError;
import dev.muster.engine.yaml.Texts;
import dev.muster.engine.yaml.YamlDocument;
import dev.muster.engine.yaml.YamlDocuments;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Splits a manifest file into its documents (YAML {@code ---} documents or JSON values, read by
 * {@link YamlDocuments} as Kubernetes reads them), expands
 * {@code kind: List} and typed lists such as {@code PodList}, and checks each object's header:
 * a mapping with apiVersion, a kind this reader knows, and {@code metadata.name}.
 */
final class ManifestParser {
    private static final String LIST = "List";

    /** {@code apiVersion kind} of the kinds another reader takes from the same files: skipped without a warning. */
    private final ImmutableSet<String> readElsewhere;

    ManifestParser() {
        this(ImmutableSet.of());
    }

    ManifestParser(Set<String> readElsewhere) {
        this.readElsewhere = ImmutableSet.copyOf(readElsewhere);
    }

    static String kindKey(String apiVersion, String kind) {
        return apiVersion + " " + kind;
    }

    /**
     * The objects of known kinds in a file's bytes, in document order; every other document, and every
     * document that cannot be read (not UTF-8, not YAML or JSON, an alias bomb), is reported and skipped.
     *
     * @param source names the text in problems; a name ending in {@code .json} is parsed as JSON
     */
    ImmutableList<ManifestObject> parse(String source, byte[] bytes, Problems problems) {
        List<ManifestObject> objects = new ArrayList<>();
        for (YamlDocument document : YamlDocuments.read(source, bytes)) {
            Location location = new Location(source, document.index(), OptionalInt.empty());
            if (document.error().isPresent()) {
                YamlDocument.Header header = document.header();
                String name = header.namespace().isEmpty() || header.name().isEmpty()
                        ? header.name()
                        : header.namespace() + "/" + header.name();
                problems.add(location.problem(header.kind(), name, "", document.error().get().describe(), ManifestProblem.Severity.ERROR));
                continue;
            }
            if (document.tree().isEmpty()) {
                // an empty document, e.g. between two '---' separators
                continue;
            }
            JsonNode tree = document.tree().get();
            for (ReadError warning : document.warnings()) {
                problems.add(location.problem(text(tree.path("kind")).orElse(""), text(tree.path("metadata").path("name")).orElse(""), "",
                        warning.describe(), ManifestProblem.Severity.WARNING));
            }
            if (FieldReader.absent(tree) || (tree.isTextual() && tree.asText().isEmpty())) {
                continue;
            }
            read(location, tree, document.positions(), Optional.empty(), objects, problems);
        }
        return ImmutableList.copyOf(objects);
    }

    /** Reads one document or List item; {@code listed} is the type a typed list gives its items. */
    private void read(Location location, JsonNode node, Positions positions, Optional<ListType> listed, List<ManifestObject> objects,
            Problems problems) {
        if (!node.isObject()) {
            problems.add(location.problem(positions.of(""), "", "", "", "the document is " + FieldReader.describe(node) + ", not a mapping",
                    ManifestProblem.Severity.ERROR));
            return;
        }
        ObjectNode body = (ObjectNode) node;
        String name = text(body.path("metadata").path("name")).orElse("");
        // for problems; a known kind is named by ManifestObject.displayName once read
        String displayName = text(body.path("metadata").path("namespace")).map(namespace -> namespace + "/" + name).orElse(name);
        Optional<String> kind = text(body.path("kind")).or(() -> listed.map(ListType::kind));
        if (kind.isEmpty()) {
            problems.add(location.problem(positions.of("kind"), "", displayName, "kind", "is missing", ManifestProblem.Severity.ERROR));
            return;
        }
        Optional<String> apiVersion = text(body.path("apiVersion")).or(() -> listed.map(ListType::apiVersion));
        if (apiVersion.isEmpty()) {
            problems.add(location.problem(positions.of("apiVersion"), kind.get(), displayName, "apiVersion", "is missing",
                    ManifestProblem.Severity.ERROR));
            return;
        }
        Optional<ListType> listType = listType(apiVersion.get(), kind.get(), body);
        if (listType.isPresent()) {
            if (location.item().isPresent()) {
                problems.add(location.problem(positions.of(""), kind.get(), displayName, "", "a list inside a list is not supported; ignored",
                        ManifestProblem.Severity.ERROR));
                return;
            }
            readItems(location, body, positions, listType.get(), objects, problems);
            return;
        }
        Optional<ResourceKind> known = ResourceKind.find(apiVersion.get(), kind.get());
        if (known.isEmpty()) {
            if (readElsewhere.contains(kindKey(apiVersion.get(), kind.get()))) {
                return;
            }
            problems.add(location.problem(positions.of("kind"), kind.get(), displayName, "", unknownKind(apiVersion.get(), kind.get()),
                    ManifestProblem.Severity.WARNING));
            return;
        }
        if (name.isEmpty()) {
            problems.add(location.problem(positions.of("metadata.name"), kind.get(), "", "metadata.name", "is missing",
                    ManifestProblem.Severity.ERROR));
            return;
        }
        String namespace = known.get().namespaced() ? text(body.path("metadata").path("namespace")).orElse("default") : "";
        objects.add(new ManifestObject(location, known.get(), namespace, name, body, positions));
    }

    private void readItems(Location location, ObjectNode body, Positions positions, ListType type, List<ManifestObject> objects,
            Problems problems) {
        JsonNode items = body.path("items");
        if (FieldReader.absent(items)) {
            return;
        }
        if (!items.isArray()) {
            problems.add(location.problem(positions.of("items"), type.listKind(), "", "items", "expected a list, found " + FieldReader.describe(items),
                    ManifestProblem.Severity.ERROR));
            return;
        }
        Optional<ListType> itemType = type.kind().isEmpty() ? Optional.empty() : Optional.of(type);
        for (int index = 0; index < items.size(); index++) {
            read(location.withItem(index), items.get(index), positions.under("items[" + index + "]"), itemType, objects, problems);
        }
    }

    /**
     * {@code kind: List} (items carry their own kind), or a typed list such as {@code PodList} as the API
     * server returns it, whose items may omit apiVersion and kind.
     */
    private static Optional<ListType> listType(String apiVersion, String kind, ObjectNode body) {
        if (kind.equals(LIST)) {
            return Optional.of(new ListType(apiVersion, LIST, ""));
        }
        if (kind.endsWith(LIST) && body.path("items").isArray()) {
            return Optional.of(new ListType(apiVersion, kind, kind.substring(0, kind.length() - LIST.length())));
        }
        return Optional.empty();
    }

    private static String unknownKind(String givenApiVersion, String givenKind) {
        String apiVersion = Texts.shortened(givenApiVersion);
        String kind = Texts.shortened(givenKind);
        String supported = ResourceKind.apiVersionsOf(kind);
        if (!supported.isEmpty()) {
            return "apiVersion " + apiVersion + " of " + kind + " is not supported (supported: " + supported + "); ignored";
        }
        return "unknown kind " + apiVersion + " " + kind + "; ignored";
    }

    private static Optional<String> text(JsonNode node) {
        if (!node.isValueNode() || node.isNull() || node.asText().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(node.asText());
    }

    /** A list's apiVersion and kind, and the kind of its items (empty for {@code kind: List}). */
    private record ListType(String apiVersion, String listKind, String kind) {}
}
