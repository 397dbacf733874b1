package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openapi_v2.Document;
import org.openapi_v2.NamedSchema;

/**
 * {@code /openapi/v2} asked for as client-go's discovery asks for it is gnostic's {@code Document} message, and
 * it holds what the JSON document holds: decoded and read back as JSON (each {@code x-} extension and value of
 * any type from its YAML), it is the JSON document less the values protobuf does not carry (false, 0 and the
 * empty string in scalar fields).
 */
class OpenApiV2ProtobufTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static EmbeddedApiServer server;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(0);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theProtobufDocumentHoldsWhatTheJsonDocumentHolds() throws Exception {
        // when
        HttpResponse<byte[]> protobuf = get(OpenApiV2Protobuf.ACCEPTED);
        HttpResponse<byte[]> json = get("application/json");

        // then
        assertThat(protobuf.statusCode()).isEqualTo(200);
        assertThat(protobuf.headers().firstValue("Content-Type")).contains("application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
        Document document = Document.parseFrom(protobuf.body());
        JsonNode expected = JSON.readTree(json.body());
        assertThat(document.getDefinitions().getAdditionalPropertiesList()).extracting(NamedSchema::getName)
                .contains("io.k8s.api.core.v1.Pod", "sh.volcano.scheduling.v1beta1.PodGroup")
                .hasSize(expected.path("definitions").size());
        assertThat(document.getPaths().getPathCount()).isEqualTo(expected.path("paths").size()).isPositive();
        List<String> differences = new ArrayList<>();
        compare(expected, asJson(document), "#", differences);
        assertThat(differences).isEmpty();
    }

    @Test
    void aClientThatPrefersJsonGetsJson() throws Exception {
        // when: the protobuf type accepted, but after JSON
        HttpResponse<byte[]> answer = get("application/json, " + OpenApiV2Protobuf.ACCEPTED + ";q=0.9");

        // then
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(answer.body()).path("swagger").asText()).isEqualTo("2.0");
    }

    private static HttpResponse<byte[]> get(String accept) throws IOException, InterruptedException {
        return TestingHttp.client(server).send(HttpRequest.newBuilder(URI.create(server.url() + "/openapi/v2"))
                .header("Accept", accept).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Each value of {@code expected} is in {@code actual}, or is one protobuf leaves out; nothing else is in {@code actual}. */
    private static void compare(JsonNode expected, JsonNode actual, String at, List<String> differences) {
        if (actual == null || actual.isMissingNode()) {
            boolean omitted = expected.isBoolean() && !expected.booleanValue() || expected.isNumber() && expected.doubleValue() == 0
                    || expected.isTextual() && expected.textValue().isEmpty() || expected.isContainerNode() && expected.isEmpty();
            if (!omitted) {
                differences.add(at + ": missing, expected " + expected);
            }
        } else if (expected.isObject() && actual.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            expected.fieldNames().forEachRemaining(names::add);
            actual.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                if (!expected.has(name)) {
                    differences.add(at + "/" + name + ": not expected, " + actual.get(name));
                } else {
                    compare(expected.get(name), actual.get(name), at + "/" + name, differences);
                }
            }
        } else if (expected.isArray() && actual.isArray() && expected.size() == actual.size()) {
            for (int index = 0; index < expected.size(); index++) {
                compare(expected.get(index), actual.get(index), at + "/" + index, differences);
            }
        } else if (expected.isNumber() && actual.isNumber() ? expected.doubleValue() != actual.doubleValue() : !expected.equals(actual)) {
            differences.add(at + ": expected " + expected + ", was " + actual);
        }
    }

    /** The message read back as the JSON gnostic's compiler read it from, field by field. */
    private static JsonNode asJson(Message message) {
        String type = message.getDescriptorForType().getName();
        Map<FieldDescriptor, Object> fields = message.getAllFields();
        if (type.equals("Any")) {
            return yaml((String) fields.values().iterator().next());
        }
        if (type.equals("TypeItem") || type.equals("ItemsItem")) {
            List<?> values = (List<?>) fields.values().iterator().next();
            return values.size() == 1 ? value(values.get(0)) : array(values);
        }
        if (type.equals("StringArray")) {
            return fields.isEmpty() ? JsonNodeFactory.instance.arrayNode() : array((List<?>) fields.values().iterator().next());
        }
        if (!message.getDescriptorForType().getRealOneofs().isEmpty()) {
            return value(fields.values().iterator().next());
        }
        ObjectNode object = JsonNodeFactory.instance.objectNode();
        fields.forEach((field, value) -> {
            if (field.isRepeated() && field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                    && field.getMessageType().getName().startsWith("Named")) {
                // an object of names, or the x- extensions
                for (Object pair : (List<?>) value) {
                    Message named = (Message) pair;
                    object.set((String) named.getField(named.getDescriptorForType().findFieldByName("name")),
                            value(named.getField(named.getDescriptorForType().findFieldByName("value"))));
                }
            } else {
                object.set(field.getName().equals("_ref") ? "$ref" : camelCase(field.getName()),
                        field.isRepeated() ? array((List<?>) value) : value(value));
            }
        });
        return object;
    }

    private static JsonNode value(Object value) {
        if (value instanceof Message message) {
            return asJson(message);
        }
        return JSON.valueToTree(value);
    }

    private static ArrayNode array(List<?> values) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        values.forEach(value -> array.add(value(value)));
        return array;
    }

    private static JsonNode yaml(String text) {
        try {
            return YAML.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String camelCase(String snakeCase) {
        StringBuilder camel = new StringBuilder();
        boolean upper = false;
        for (char character : snakeCase.toCharArray()) {
            if (character == '_') {
                upper = true;
            } else {
                camel.append(upper ? Character.toUpperCase(character) : character);
                upper = false;
            }
        }
        return camel.toString();
    }
}
