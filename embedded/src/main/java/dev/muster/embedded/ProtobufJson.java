package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSet;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import dev.muster.engine.api.GoDuration;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * A Kubernetes protobuf message as the JSON kube-apiserver stores for it. The field names of
 * Kubernetes' {@code generated.proto} are the JSON names; the few types with a JSON form of their own
 * are written in it (a Quantity as its string, a Time as RFC 3339, an IntOrString as the int or the
 * string, a RawExtension and FieldsV1 as the JSON they carry, bytes as base64).
 *
 * <p>Go's protobuf marshaller writes every field that is not a pointer, zero or not, so a zero
 * scalar (empty string, 0, false) is left out, as the JSON encoder's {@code omitempty} leaves most of
 * them out. A pointer set to zero reads the same as an absent one: {@code terminationGracePeriodSeconds:
 * 0} or {@code automountServiceAccountToken: false} sent in protobuf are stored without the field.
 */
final class ProtobufJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    /**
     * The fields whose Go struct is embedded with {@code json:",inline"} (k8s.io/api v0.34.4
     * {@code core/v1/types.go}; none in the other groups read here): JSON has their fields in the
     * parent object, protobuf a field of their own.
     */
    private static final ImmutableSet<String> INLINE = ImmutableSet.of(
            "k8s.io.api.core.v1.Volume.volumeSource",
            "k8s.io.api.core.v1.PersistentVolumeSpec.persistentVolumeSource",
            "k8s.io.api.core.v1.Probe.handler",
            "k8s.io.api.core.v1.EphemeralContainer.ephemeralContainerCommon",
            "k8s.io.api.core.v1.ConfigMapVolumeSource.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapKeySelector.localObjectReference",
            "k8s.io.api.core.v1.SecretKeySelector.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapEnvSource.localObjectReference",
            "k8s.io.api.core.v1.SecretEnvSource.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapProjection.localObjectReference",
            "k8s.io.api.core.v1.SecretProjection.localObjectReference");

    private ProtobufJson() {}

    /**
     * The field's JSON key: its proto name, whose first letter Kubernetes' JSON never capitalises. The proto
     * names follow the Go fields' JSON tags, with a few exceptions written in Go's case, such as
     * admissionregistration/v1's {@code ValidatingWebhookConfiguration.Webhooks}, which is {@code webhooks} in JSON.
     */
    private static String jsonName(FieldDescriptor field) {
        String name = field.getName();
        return Character.isUpperCase(name.charAt(0)) ? Character.toLowerCase(name.charAt(0)) + name.substring(1) : name;
    }

    static ObjectNode object(DynamicMessage message) {
        ObjectNode object = NODES.objectNode();
        for (FieldDescriptor field : message.getDescriptorForType().getFields()) {
            if (field.isMapField()) {
                List<?> entries = (List<?>) message.getField(field);
                if (!entries.isEmpty()) {
                    ObjectNode map = object.putObject(jsonName(field));
                    for (Object entry : entries) {
                        DynamicMessage pair = (DynamicMessage) entry;
                        Descriptor type = pair.getDescriptorForType();
                        FieldDescriptor valueField = type.findFieldByName("value");
                        map.set(String.valueOf(pair.getField(type.findFieldByName("key"))),
                                value(valueField, pair.getField(valueField)).orElse(emptyOf(valueField)));
                    }
                }
            } else if (field.isRepeated()) {
                List<?> values = (List<?>) message.getField(field);
                if (!values.isEmpty()) {
                    ArrayNode array = object.putArray(jsonName(field));
                    values.forEach(value -> array.add(value(field, value).orElse(emptyOf(field))));
                }
            } else if (message.hasField(field)) {
                Optional<JsonNode> value = value(field, message.getField(field));
                if (INLINE.contains(field.getFullName()) && value.orElse(null) instanceof ObjectNode inlined) {
                    object.setAll(inlined);
                } else {
                    value.ifPresent(present -> object.set(jsonName(field), present));
                }
            }
        }
        return object;
    }

    /** The JSON of one value of a field; empty for a zero scalar or a zero time, which JSON leaves out. */
    private static Optional<JsonNode> value(FieldDescriptor field, Object value) {
        return switch (field.getJavaType()) {
            case MESSAGE -> message((DynamicMessage) value);
            case STRING -> ((String) value).isEmpty() ? Optional.empty() : Optional.of(NODES.textNode((String) value));
            case BOOLEAN -> (Boolean) value ? Optional.of(NODES.booleanNode(true)) : Optional.empty();
            case INT -> (Integer) value == 0 ? Optional.empty() : Optional.of(NODES.numberNode((Integer) value));
            case LONG -> (Long) value == 0 ? Optional.empty() : Optional.of(NODES.numberNode((Long) value));
            case DOUBLE -> (Double) value == 0 ? Optional.empty() : Optional.of(NODES.numberNode((Double) value));
            case FLOAT -> (Float) value == 0 ? Optional.empty() : Optional.of(NODES.numberNode((Float) value));
            case BYTE_STRING -> ((ByteString) value).isEmpty() ? Optional.empty()
                    : Optional.of(NODES.textNode(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray())));
            case ENUM -> Optional.of(NODES.textNode(String.valueOf(value)));
        };
    }

    /** A list element or map value that is zero is still there: an empty string stays "", a zero 0. */
    private static JsonNode emptyOf(FieldDescriptor field) {
        return switch (field.getJavaType()) {
            case STRING, BYTE_STRING -> NODES.textNode("");
            case BOOLEAN -> NODES.booleanNode(false);
            case INT, LONG, DOUBLE, FLOAT -> NODES.numberNode(0);
            case MESSAGE, ENUM -> NODES.nullNode();
        };
    }

    private static Optional<JsonNode> message(DynamicMessage message) {
        Descriptor type = message.getDescriptorForType();
        switch (type.getFullName()) {
            case "k8s.io.apimachinery.pkg.api.resource.Quantity":
                return Optional.of(NODES.textNode(string(message, "string")));
            case META + "Time":
                return time(message, SECONDS);
            case META + "MicroTime":
                return time(message, MICROS);
            case META + "Duration":
                return Optional.of(NODES.textNode(GoDuration.format(Duration.ofNanos(number(message, "duration")))));
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString":
                return Optional.of(number(message, "type") == 1 ? NODES.textNode(string(message, "strVal"))
                        : NODES.numberNode(number(message, "intVal")));
            case "k8s.io.apimachinery.pkg.runtime.RawExtension":
                return embedded(message, "raw");
            case META + "FieldsV1":
                return embedded(message, "Raw");
            default:
                break;
        }
        List<FieldDescriptor> fields = type.getFields();
        if (fields.size() == 1 && fields.get(0).getName().equals("items") && fields.get(0).isRepeated()) {
            // a nullable list's wrapper (ExtraValue, Verbs): JSON has the list itself
            ArrayNode items = NODES.arrayNode();
            ((List<?>) message.getField(fields.get(0))).forEach(item -> items.add(value(fields.get(0), item).orElse(emptyOf(fields.get(0)))));
            return Optional.of(items);
        }
        return Optional.of(object(message));
    }

    private static Optional<JsonNode> time(DynamicMessage message, DateTimeFormatter format) {
        long seconds = number(message, "seconds");
        long nanos = number(message, "nanos");
        if (seconds == 0 && nanos == 0) {
            // Go's zero time, which JSON writes as null
            return Optional.empty();
        }
        return Optional.of(NODES.textNode(format.format(Instant.ofEpochSecond(seconds, nanos))));
    }

    private static Optional<JsonNode> embedded(DynamicMessage message, String field) {
        ByteString raw = (ByteString) message.getField(message.getDescriptorForType().findFieldByName(field));
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readTree(raw.toByteArray()));
        } catch (IOException e) {
            // a RawExtension may hold protobuf; kept as the bytes it is
            return Optional.of(NODES.textNode(Base64.getEncoder().encodeToString(raw.toByteArray())));
        }
    }

    private static String string(DynamicMessage message, String field) {
        return (String) message.getField(message.getDescriptorForType().findFieldByName(field));
    }

    private static long number(DynamicMessage message, String field) {
        return ((Number) message.getField(message.getDescriptorForType().findFieldByName(field))).longValue();
    }
}
