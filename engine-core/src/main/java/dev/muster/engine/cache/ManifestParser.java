package dev.muster.engine.cache;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Splits a manifest text into its documents (YAML {@code ---} documents or JSON values), expands
 * {@code kind: List} and typed lists such as {@code PodList}, and checks each object's header:
 * a mapping with apiVersion, a kind this reader knows, and {@code metadata.name}.
 */
final class ManifestParser {
    private static final String LIST = "List";

    private final ObjectMapper yaml;
    private final ObjectMapper json = new JsonMapper();

    ManifestParser() {
        LoaderOptions options = new LoaderOptions();
        // SnakeYAML refuses documents over 3 MB by default; a dump of a large cluster is bigger
        options.setCodePointLimit(Integer.MAX_VALUE);
        this.yaml = new YAMLMapper(YAMLFactory.builder().loaderOptions(options).build());
    }

    /**
     * The objects of known kinds in a text, in document order; every other document is reported.
     *
     * @param source names the text in problems; a name ending in {@code .json} is parsed as JSON
     * @throws ManifestException when the text is not valid YAML or JSON
     */
    ImmutableList<ManifestObject> parse(String source, String text, Problems problems) {
        List<JsonNode> documents = documents(source, text);
        List<ManifestObject> objects = new ArrayList<>();
        for (int index = 0; index < documents.size(); index++) {
            JsonNode document = documents.get(index);
            if (document == null || FieldReader.absent(document) || (document.isTextual() && document.asText().isEmpty())) {
                // an empty document, e.g. between two '---' separators
                continue;
            }
            read(new Location(source, index, OptionalInt.empty()), document, Optional.empty(), objects, problems);
        }
        return ImmutableList.copyOf(objects);
    }

    private List<JsonNode> documents(String source, String text) {
        ObjectMapper mapper = source.toLowerCase(Locale.ROOT).endsWith(".json") ? json : yaml;
        List<JsonNode> documents = new ArrayList<>();
        // one tree per root value; MappingIterator would instead unwrap a root-level sequence into its elements
        try (JsonParser parser = mapper.createParser(text)) {
            while (parser.nextToken() != null) {
                documents.add(mapper.readTree(parser));
            }
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null
                    ? ""
                    : String.format(Locale.ROOT, " at line %d, column %d", at.getLineNr(), at.getColumnNr());
            String format = mapper == json ? "JSON" : "YAML";
            throw new ManifestException(source + ": not valid " + format + where + ": " + e.getOriginalMessage().trim(), e);
        } catch (IOException e) {
            throw new ManifestException(source + ": cannot be read: " + e.getMessage(), e);
        }
        return documents;
    }

    /** Reads one document or List item; {@code listed} is the type a typed list gives its items. */
    private void read(
            Location location, JsonNode node, Optional<ListType> listed, List<ManifestObject> objects, Problems problems) {
        if (!node.isObject()) {
            problems.add(location.problem("", "", "", "the document is " + FieldReader.describe(node) + ", not a mapping",
                    ManifestProblem.Severity.ERROR));
            return;
        }
        ObjectNode body = (ObjectNode) node;
        String name = text(body.path("metadata").path("name")).orElse("");
        // for problems; a known kind is named by ManifestObject.displayName once read
        String displayName = text(body.path("metadata").path("namespace")).map(namespace -> namespace + "/" + name).orElse(name);
        Optional<String> kind = text(body.path("kind")).or(() -> listed.map(ListType::kind));
        if (kind.isEmpty()) {
            problems.add(location.problem("", displayName, "kind", "is missing", ManifestProblem.Severity.ERROR));
            return;
        }
        Optional<String> apiVersion = text(body.path("apiVersion")).or(() -> listed.map(ListType::apiVersion));
        if (apiVersion.isEmpty()) {
            problems.add(location.problem(kind.get(), displayName, "apiVersion", "is missing", ManifestProblem.Severity.ERROR));
            return;
        }
        Optional<ListType> listType = listType(apiVersion.get(), kind.get(), body);
        if (listType.isPresent()) {
            if (location.item().isPresent()) {
                problems.add(location.problem(kind.get(), displayName, "", "a list inside a list is not supported; ignored",
                        ManifestProblem.Severity.ERROR));
                return;
            }
            readItems(location, body, listType.get(), objects, problems);
            return;
        }
        Optional<ResourceKind> known = ResourceKind.find(apiVersion.get(), kind.get());
        if (known.isEmpty()) {
            problems.add(location.problem(kind.get(), displayName, "", unknownKind(apiVersion.get(), kind.get()),
                    ManifestProblem.Severity.WARNING));
            return;
        }
        if (name.isEmpty()) {
            problems.add(location.problem(kind.get(), "", "metadata.name", "is missing", ManifestProblem.Severity.ERROR));
            return;
        }
        String namespace = known.get().namespaced() ? text(body.path("metadata").path("namespace")).orElse("default") : "";
        objects.add(new ManifestObject(location, known.get(), namespace, name, body));
    }

    private void readItems(Location location, ObjectNode body, ListType type, List<ManifestObject> objects, Problems problems) {
        JsonNode items = body.path("items");
        if (FieldReader.absent(items)) {
            return;
        }
        if (!items.isArray()) {
            problems.add(location.problem(type.listKind(), "", "items", "expected a list, found " + FieldReader.describe(items),
                    ManifestProblem.Severity.ERROR));
            return;
        }
        Optional<ListType> itemType = type.kind().isEmpty() ? Optional.empty() : Optional.of(type);
        for (int index = 0; index < items.size(); index++) {
            read(location.withItem(index), items.get(index), itemType, objects, problems);
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

    private static String unknownKind(String apiVersion, String kind) {
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
