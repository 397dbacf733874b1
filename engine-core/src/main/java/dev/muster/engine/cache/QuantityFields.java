package dev.muster.engine.cache;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.engine.api.FieldValues;
import dev.muster.engine.model.Quantities;
import dev.muster.engine.model.Resources;
import dev.muster.engine.yaml.Texts;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Reads Kubernetes resource lists ({@code cpu: 500m, memory: 1Gi, nvidia.com/gpu: 2}) into the
 * scheduler's units, as Volcano's {@code NewResource} does: cpu in millicores, memory in bytes,
 * scalar resources in milli-units; {@code pods} apart; every other name (e.g. {@code ephemeral-storage})
 * ignored. Fractions round up, as Kubernetes' {@code MilliValue} and {@code Value} do.
 */
public final class QuantityFields {
    private static final String PODS = "pods";
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

    private QuantityFields() {}

    /**
     * What a resource list held.
     *
     * @param pods the {@code pods} quantity, when listed
     * @param valid every entry was a non-negative quantity
     */
    record ResourceList(Resources resources, OptionalLong pods, boolean valid) {
        static final ResourceList ABSENT = new ResourceList(Resources.EMPTY, OptionalLong.empty(), true);
    }

    /** Reads the list at {@code path}; bad entries are reported as errors and left out of the result. */
    static ResourceList read(FieldReader reader, String path) {
        return read(reader, reader.at(path), path);
    }

    static ResourceList read(FieldReader reader, JsonNode list, String path) {
        return read(list, path, reader::error);
    }

    /**
     * The resource list at {@code path} (a container's {@code resources.requests}, say) in the scheduler's units, as
     * the manifest converters read a pod's; each bad entry is told to {@code problems} and left out. For a bridge that
     * counts what pods it has not made yet will ask for, as the scheduler will count them.
     */
    public static Resources resources(JsonNode list, String path, FieldValues.Problems problems) {
        return read(list, path, problems).resources();
    }

    private static ResourceList read(JsonNode list, String path, FieldValues.Problems problems) {
        if (FieldValues.absent(list)) {
            return ResourceList.ABSENT;
        }
        if (!FieldValues.isMapOrAbsent(list, path, problems)) {
            return new ResourceList(Resources.EMPTY, OptionalLong.empty(), false);
        }
        boolean valid = true;
        OptionalLong pods = OptionalLong.empty();
        TreeMap<String, Double> quantities = new TreeMap<>();
        for (Map.Entry<String, JsonNode> entry : list.properties()) {
            String name = entry.getKey();
            String field = path + "." + name;
            JsonNode value = entry.getValue();
            if (!value.isValueNode() || value.isNull()) {
                problems.problem(field, FieldValues.describe(value) + " is not a Kubernetes quantity");
                valid = false;
                continue;
            }
            String text = value.asText();
            BigDecimal quantity;
            try {
                quantity = Quantities.parse(text);
            } catch (IllegalArgumentException e) {
                problems.problem(field, "'" + Texts.shortened(text) + "' is not a Kubernetes quantity");
                valid = false;
                continue;
            }
            if (quantity.signum() < 0) {
                problems.problem(field, "'" + Texts.shortened(text) + "' is negative");
                valid = false;
                continue;
            }
            if (name.equals(Resources.CPU) || isScalarResourceName(name)) {
                quantities.put(name, roundUp(quantity.multiply(THOUSAND)));
            } else if (name.equals(Resources.MEMORY)) {
                quantities.put(name, roundUp(quantity));
            } else if (name.equals(PODS)) {
                pods = OptionalLong.of(quantity.setScale(0, RoundingMode.CEILING).longValue());
            }
        }
        return new ResourceList(Resources.of(quantities), pods, valid);
    }

    /**
     * Kubernetes' {@code IsScalarResourceName}, which Volcano uses: extended resources (a domain-prefixed
     * name such as {@code nvidia.com/gpu}), prefixed native ones ({@code kubernetes.io/...}), hugepages
     * and attachable volumes. {@code requests.*} names belong to quota objects and are not resources.
     */
    static boolean isScalarResourceName(String name) {
        return name.startsWith("hugepages-")
                || name.startsWith("attachable-volumes-")
                || (name.contains("/") && !name.startsWith("requests."));
    }

    private static double roundUp(BigDecimal value) {
        return value.setScale(0, RoundingMode.CEILING).doubleValue();
    }
}
