package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import java.util.function.Function;

/**
 * The fields a kind can be selected by and how each reads from a stored object, as kube-apiserver's
 * field label conversion functions ({@code pkg/apis/core/v1/conversion.go}) accept them and its
 * registries' {@code ToSelectableFields} compute them. Kinds without their own list accept
 * {@code metadata.name} and {@code metadata.namespace} ({@code DefaultMetaV1FieldSelectorConversion});
 * a custom resource, {@code metadata.name} and, when namespaced, {@code metadata.namespace}.
 */
final class FieldLabels {
    private static final String NAME = "metadata.name";
    private static final String NAMESPACE = "metadata.namespace";
    private static final ImmutableSet<String> POD = ImmutableSet.of(NAME, NAMESPACE, "spec.nodeName", "spec.restartPolicy",
            "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.podIPs",
            "status.nominatedNodeName");
    private static final ImmutableSet<String> EVENT = ImmutableSet.of("involvedObject.kind", "involvedObject.namespace",
            "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
            "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type", NAMESPACE, NAME);
    /** Built-in kinds with a conversion function of their own, by {@code apiVersion/kind}. */
    private static final ImmutableMap<String, ImmutableSet<String>> SUPPORTED = ImmutableMap.of(
            "v1/Pod", POD,
            "v1/Node", ImmutableSet.of(NAME, "spec.unschedulable"),
            "v1/Event", EVENT,
            "v1/Namespace", ImmutableSet.of("status.phase", NAME),
            "v1/Secret", ImmutableSet.of("type", NAMESPACE, NAME),
            "v1/Service", ImmutableSet.of(NAMESPACE, NAME, "spec.clusterIP", "spec.type"));

    private FieldLabels() {}

    /**
     * The selector as kube-apiserver converts it for the kind: {@code spec.host} becomes
     * {@code spec.nodeName} for pods, as for old clients.
     *
     * @throws BadSelectorException for a field the kind does not support, with kube-apiserver's message
     */
    static FieldSelector convert(ResourceKinds.Kind kind, FieldSelector selector) {
        ImmutableSet<String> supported = SUPPORTED.get(kind.apiVersion() + "/" + kind.kind());
        ImmutableList.Builder<FieldSelector.Term> converted = ImmutableList.builder();
        for (FieldSelector.Term term : selector.terms()) {
            String field = term.field();
            if (supported != null && kind.kind().equals("Pod") && field.equals("spec.host")) {
                field = "spec.nodeName";
            } else if (supported != null && !supported.contains(field)) {
                throw new BadSelectorException("field label not supported: " + field);
            } else if (supported == null && kind.custom() && !(field.equals(NAME) || (kind.namespaced() && field.equals(NAMESPACE)))) {
                throw new BadSelectorException("field label not supported: " + field);
            } else if (supported == null && !kind.custom() && !field.equals(NAME) && !field.equals(NAMESPACE)) {
                throw new BadSelectorException("\"" + field + "\" is not a known field selector: only \"" + NAME + "\", \"" + NAMESPACE + "\"");
            }
            converted.add(new FieldSelector.Term(field, term.value(), term.negated()));
        }
        return new FieldSelector(converted.build());
    }

    /** How the fields of {@code object} read for selection; null for a field it has no value for (read as empty). */
    static Function<String, String> of(JsonNode object) {
        return field -> value(object, field);
    }

    private static String value(JsonNode object, String field) {
        JsonNode metadata = object.path("metadata");
        JsonNode spec = object.path("spec");
        JsonNode status = object.path("status");
        return switch (field) {
            case NAME -> metadata.path("name").asText("");
            case NAMESPACE -> metadata.path("namespace").asText("");
            case "spec.hostNetwork" -> String.valueOf(spec.path("hostNetwork").asBoolean(false));
            case "spec.unschedulable" -> String.valueOf(spec.path("unschedulable").asBoolean(false));
            case "status.podIP" -> podIp(status);
            case "status.podIPs" -> "";
            case "source" -> object.path("source").path("component").asText("").isEmpty()
                    ? object.path("reportingComponent").asText("") : object.path("source").path("component").asText();
            default -> at(object, field);
        };
    }

    /** kube-apiserver reads the first of {@code podIPs}, which it fills from {@code podIP} when a client set that alone. */
    private static String podIp(JsonNode status) {
        JsonNode first = status.path("podIPs").path(0).path("ip");
        return first.isTextual() ? first.asText() : status.path("podIP").asText("");
    }

    /** The text at a dotted path ({@code involvedObject.kind}, {@code spec.nodeName}, {@code type}); empty if absent. */
    private static String at(JsonNode object, String field) {
        JsonNode node = object;
        for (String part : field.split("\\.", -1)) {
            node = node.path(part);
        }
        return node.isValueNode() ? node.asText() : "";
    }
}
