package dev.muster.embedded;

import static java.lang.String.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openapi_v2.Document;

/**
 * The OpenAPI v2 document as kube-apiserver serves it to {@code Accept:
 * application/com.github.proto-openapi.spec.v2@v1.0+protobuf}: gnostic's {@code openapi.v2.Document}
 * message (generated from {@code src/main/gnostic}), made from the JSON document as gnostic's compiler
 * makes it from JSON, which is what kube-openapi's handler does with kube-apiserver's own JSON.
 *
 * <p>The conversion follows the message types' descriptors: a JSON property is the field of the same
 * name in snake case ({@code $ref} is {@code _ref}); an {@code x-} property is a {@code vendor_extension};
 * an object of names (definitions, properties, paths, responses) is the repeated {@code NamedX} field;
 * a value of any type ({@code default}, {@code example}, {@code enum}'s, an extension's) is an {@code Any}
 * holding its YAML; and the model's alternatives ({@code oneof}) are chosen as gnostic's compiler chooses
 * them: a {@code $ref} is a reference, a parameter by where it is ({@code in}), a schema of type {@code file}
 * a file schema, a security definition by its type and flow. A property the model does not have is refused,
 * as gnostic's compiler refuses it ("has invalid property").
 */
final class OpenApiV2Protobuf {
    /** The media type clients ask with (client-go's discovery), and the one kube-apiserver answers with. */
    static final String ACCEPTED = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

    static final String CONTENT_TYPE = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

    private static final String VENDOR_EXTENSION = "vendor_extension";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            // a string that reads as a number stays a string
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));

    private OpenApiV2Protobuf() {}

    /**
     * Whether a request's {@code Accept} header prefers the protobuf document (either media type) to JSON, as
     * kube-openapi's handler chooses: the first of the clauses in order of quality that JSON or protobuf
     * matches, JSON first for a wildcard.
     */
    static boolean preferred(String accept) {
        List<String[]> clauses = new ArrayList<>();
        for (String clause : accept.split(",")) {
            String[] parts = clause.split(";");
            String quality = "1";
            for (int index = 1; index < parts.length; index++) {
                String parameter = parts[index].trim();
                if (parameter.startsWith("q=")) {
                    quality = parameter.substring(2);
                }
            }
            clauses.add(new String[] {parts[0].trim(), quality});
        }
        // a stable sort: clauses of one quality keep the client's order
        clauses.sort(Comparator.comparingDouble((String[] clause) -> quality(clause[1])).reversed());
        for (String[] clause : clauses) {
            String mediaType = clause[0];
            if (mediaType.equals("*/*") || mediaType.equals("application/*") || mediaType.equals("application/json")) {
                return false;
            }
            if (mediaType.equals(ACCEPTED) || mediaType.equals(CONTENT_TYPE)) {
                return true;
            }
        }
        return false;
    }

    private static double quality(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            // a quality that is not a number ranks last
            return 0;
        }
    }

    /**
     * The message of a v2 document.
     *
     * @throws IllegalArgumentException naming the place in the document, for what gnostic's model cannot hold
     */
    static Document of(JsonNode document) {
        Document.Builder message = Document.newBuilder();
        fill(message, document, "#");
        return message.build();
    }

    private static void fill(Message.Builder message, JsonNode json, String at) {
        Descriptor type = message.getDescriptorForType();
        switch (type.getName()) {
            case "Any" -> message.setField(field(type, "yaml", at), yaml(json, at));
            case "TypeItem", "StringArray" -> {
                for (JsonNode value : json.isArray() ? json : YAML.createArrayNode().add(json)) {
                    message.addRepeatedField(field(type, "value", at), text(value, at));
                }
            }
            case "ItemsItem" -> {
                for (JsonNode schema : json.isArray() ? json : YAML.createArrayNode().add(json)) {
                    message.addRepeatedField(field(type, "schema", at), built(message, field(type, "schema", at), schema, at));
                }
            }
            case "AdditionalPropertiesItem" -> {
                if (json.isBoolean()) {
                    message.setField(field(type, "boolean", at), json.booleanValue());
                } else {
                    set(message, field(type, "schema", at), json, at);
                }
            }
            default -> {
                if (!type.getRealOneofs().isEmpty()) {
                    set(message, field(type, alternative(type.getName(), json, at), at), json, at);
                } else {
                    Optional<FieldDescriptor> named = named(type);
                    if (named.isPresent()) {
                        names(message, named.get(), json, at);
                    } else {
                        properties(message, json, at);
                    }
                }
            }
        }
    }

    /** Which field of a {@code oneof} message holds {@code json}, as gnostic's compiler tries them. */
    private static String alternative(String type, JsonNode json, String at) {
        String in = json.path("in").asText();
        return switch (type) {
            case "ParametersItem" -> json.has("$ref") ? "json_reference" : "parameter";
            case "ResponseValue" -> json.has("$ref") ? "json_reference" : "response";
            case "Parameter" -> in.equals("body") ? "body_parameter" : "non_body_parameter";
            case "NonBodyParameter" -> switch (in) {
                case "header" -> "header_parameter_sub_schema";
                case "formData" -> "form_data_parameter_sub_schema";
                case "query" -> "query_parameter_sub_schema";
                case "path" -> "path_parameter_sub_schema";
                default -> throw invalid(at, format("parameter 'in' is '%s', not header, formData, query, path or body", in));
            };
            case "SchemaItem" -> json.path("type").asText().equals("file") ? "file_schema" : "schema";
            case "SecurityDefinitionsItem" -> switch (json.path("type").asText() + "/" + json.path("flow").asText()) {
                case "basic/" -> "basic_authentication_security";
                case "apiKey/" -> "api_key_security";
                case "oauth2/implicit" -> "oauth2_implicit_security";
                case "oauth2/password" -> "oauth2_password_security";
                case "oauth2/application" -> "oauth2_application_security";
                case "oauth2/accessCode" -> "oauth2_access_code_security";
                default -> throw invalid(at, "a security definition of no type and flow gnostic's model knows");
            };
            default -> throw new IllegalStateException("BUG: no rule for the alternatives of " + type);
        };
    }

    /** The repeated {@code NamedX} field of a message that holds an object of names, if it is one. */
    private static Optional<FieldDescriptor> named(Descriptor type) {
        return type.getFields().stream()
                .filter(field -> field.isRepeated() && !field.getName().equals(VENDOR_EXTENSION)
                        && field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                        && field.getMessageType().getName().startsWith("Named"))
                .findFirst();
    }

    private static void names(Message.Builder message, FieldDescriptor named, JsonNode json, String at) {
        object(json, at);
        for (Map.Entry<String, JsonNode> entry : json.properties()) {
            String where = at + "/" + entry.getKey().replace("~", "~0").replace("/", "~1");
            if (entry.getKey().startsWith("x-") && message.getDescriptorForType().findFieldByName(VENDOR_EXTENSION) != null) {
                extension(message, entry.getKey(), entry.getValue(), where);
                continue;
            }
            Message.Builder pair = message.newBuilderForField(named);
            Descriptor pairType = pair.getDescriptorForType();
            pair.setField(field(pairType, "name", where), entry.getKey());
            FieldDescriptor value = field(pairType, "value", where);
            if (value.getJavaType() == FieldDescriptor.JavaType.STRING) {
                pair.setField(value, text(entry.getValue(), where));
            } else {
                set(pair, value, entry.getValue(), where);
            }
            message.addRepeatedField(named, pair.build());
        }
    }

    private static void properties(Message.Builder message, JsonNode json, String at) {
        object(json, at);
        Descriptor type = message.getDescriptorForType();
        for (Map.Entry<String, JsonNode> entry : json.properties()) {
            String key = entry.getKey();
            String where = at + "/" + key;
            if (key.startsWith("x-") && type.findFieldByName(VENDOR_EXTENSION) != null) {
                extension(message, key, entry.getValue(), where);
                continue;
            }
            FieldDescriptor field = type.findFieldByName(key.equals("$ref") ? "_ref" : snakeCase(key));
            if (field == null) {
                throw invalid(at, format("%s has invalid property: %s", type.getName(), key));
            }
            if (field.isRepeated()) {
                if (!entry.getValue().isArray()) {
                    throw invalid(where, "is not an array");
                }
                for (JsonNode item : entry.getValue()) {
                    message.addRepeatedField(field, value(message, field, item, where));
                }
            } else {
                message.setField(field, value(message, field, entry.getValue(), where));
            }
        }
    }

    private static Object value(Message.Builder message, FieldDescriptor field, JsonNode json, String at) {
        return switch (field.getJavaType()) {
            case MESSAGE -> built(message, field, json, at);
            case STRING -> text(json, at);
            case BOOLEAN -> json.asBoolean();
            case DOUBLE -> json.asDouble();
            case LONG -> json.asLong();
            case INT, FLOAT, BYTE_STRING, ENUM -> throw new IllegalStateException("BUG: gnostic's model has no " + field.getJavaType() + " field");
        };
    }

    private static void set(Message.Builder message, FieldDescriptor field, JsonNode json, String at) {
        message.setField(field, built(message, field, json, at));
    }

    private static Message built(Message.Builder message, FieldDescriptor field, JsonNode json, String at) {
        Message.Builder child = message.newBuilderForField(field);
        fill(child, json, at);
        return child.build();
    }

    private static void extension(Message.Builder message, String name, JsonNode value, String at) {
        FieldDescriptor extensions = message.getDescriptorForType().findFieldByName(VENDOR_EXTENSION);
        Message.Builder pair = message.newBuilderForField(extensions);
        pair.setField(field(pair.getDescriptorForType(), "name", at), name);
        set(pair, field(pair.getDescriptorForType(), "value", at), value, at);
        message.addRepeatedField(extensions, pair.build());
    }

    private static FieldDescriptor field(Descriptor type, String name, String at) {
        FieldDescriptor field = type.findFieldByName(name);
        if (field == null) {
            throw new IllegalStateException(format("BUG: %s: gnostic's %s has no field %s", at, type.getName(), name));
        }
        return field;
    }

    private static String yaml(JsonNode json, String at) {
        try {
            return YAML.writeValueAsString(json);
        } catch (JsonProcessingException e) {
            throw invalid(at, "cannot be written as YAML: " + e.getOriginalMessage());
        }
    }

    private static String text(JsonNode json, String at) {
        if (!json.isTextual()) {
            throw invalid(at, "is not a string: " + json);
        }
        return json.textValue();
    }

    private static void object(JsonNode json, String at) {
        if (!json.isObject()) {
            throw invalid(at, "is not an object: " + json.getNodeType());
        }
    }

    private static String snakeCase(String camelCase) {
        StringBuilder snake = new StringBuilder(camelCase.length() + 4);
        for (char character : camelCase.toCharArray()) {
            if (Character.isUpperCase(character)) {
                snake.append('_').append(Character.toLowerCase(character));
            } else {
                snake.append(character);
            }
        }
        return snake.toString();
    }

    private static IllegalArgumentException invalid(String at, String problem) {
        return new IllegalArgumentException(format("openapi v2 %s: %s", at, problem));
    }
}
