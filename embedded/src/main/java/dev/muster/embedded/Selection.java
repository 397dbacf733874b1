package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a list, watch or collection delete selects by its {@code labelSelector} and
 * {@code fieldSelector} parameters, for the kind its path names, as kube-apiserver reads them: a
 * malformed label selector, or a field the kind cannot be selected by, throws
 * {@link BadSelectorException}, which the server answers 400 BadRequest.
 */
record Selection(LabelSelector labels, FieldSelector fields) {
    static final Selection EVERYTHING = new Selection(LabelSelector.EVERYTHING, FieldSelector.EVERYTHING);
    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper TREES = new ObjectMapper();

    Selection {
        requireNonNull(labels, "labels is null");
        requireNonNull(fields, "fields is null");
    }

    /** The selection the request path's parameters ask for. */
    static Selection of(String path, ResourceKinds kinds) {
        QueryParameters parameters = QueryParameters.of(path);
        LabelSelector labels = parameters.get("labelSelector").map(LabelSelector::parse).orElse(LabelSelector.EVERYTHING);
        FieldSelector fields = parameters.get("fieldSelector").map(FieldSelector::parse).orElse(FieldSelector.EVERYTHING);
        if (!fields.isEmpty()) {
            Optional<ResourceKinds.Kind> kind = kinds.of(path);
            if (kind.isPresent()) {
                fields = FieldLabels.convert(kind.get(), fields);
            }
        }
        return new Selection(labels, fields);
    }

    boolean isEmpty() {
        return labels.isEmpty() && fields.isEmpty();
    }

    /**
     * The name the selection asks for with {@code metadata.name=NAME} when that is its only field
     * term, so that a watch can match it on the store's key without reading each object.
     */
    Optional<String> exactName() {
        if (fields.terms().size() != 1) {
            return Optional.empty();
        }
        FieldSelector.Term term = fields.terms().get(0);
        return term.field().equals("metadata.name") && !term.negated() ? Optional.of(term.value()) : Optional.empty();
    }

    /** This selection without its field terms. */
    Selection labelsOnly() {
        return new Selection(labels, FieldSelector.EVERYTHING);
    }

    /** Whether an object stored as {@code json} is selected; labels alone are read without building a tree. */
    boolean matches(String json) {
        if (isEmpty()) {
            return true;
        }
        if (!labels.mayMatch(json)) {
            return false;
        }
        if (fields.isEmpty()) {
            return labels.matches(labelsOf(json));
        }
        try {
            return matches(TREES.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    boolean matches(JsonNode object) {
        Map<String, String> objectLabels = new HashMap<>();
        object.path("metadata").path("labels").properties().forEach(label -> objectLabels.put(label.getKey(), label.getValue().asText()));
        return labels.matches(objectLabels) && fields.matches(FieldLabels.of(object));
    }

    /** {@code metadata.labels} of a stored object, read with a streaming parser. */
    static Map<String, String> labelsOf(String json) {
        Map<String, String> labels = new HashMap<>();
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return labels;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("metadata".equals(field) && value == JsonToken.START_OBJECT) {
                    while (parser.nextToken() == JsonToken.FIELD_NAME) {
                        String metadataField = parser.currentName();
                        JsonToken metadataValue = parser.nextToken();
                        if ("labels".equals(metadataField) && metadataValue == JsonToken.START_OBJECT) {
                            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                                String key = parser.currentName();
                                parser.nextToken();
                                labels.put(key, parser.getValueAsString(""));
                            }
                            return labels;
                        }
                        parser.skipChildren();
                    }
                    return labels;
                }
                parser.skipChildren();
            }
            return labels;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The path without its selector parameters: what the mock is asked for, the selection being applied here. */
    static String withoutSelectors(String path) {
        int query = path.indexOf('?');
        if (query < 0) {
            return path;
        }
        StringBuilder kept = new StringBuilder(path.substring(0, query));
        char separator = '?';
        for (String parameter : path.substring(query + 1).split("&", -1)) {
            if (parameter.isEmpty() || parameter.startsWith("labelSelector=") || parameter.startsWith("fieldSelector=")
                    || parameter.equals("labelSelector") || parameter.equals("fieldSelector")) {
                continue;
            }
            kept.append(separator).append(parameter);
            separator = '&';
        }
        return kept.toString();
    }
}
