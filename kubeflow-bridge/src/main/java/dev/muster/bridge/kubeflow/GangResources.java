package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.kubeflow.NativeJob.ReplicaSpec;
import dev.muster.engine.model.Quantities;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a job's gang needs to start, for the {@code spec.minResources} of native mode's PodGroup, which Muster's
 * enqueue action checks before it admits the gang. As training operator v1.9 computes it ({@code job.go:255-277}): the
 * job's {@code runPolicy.schedulingPolicy.minResources} when it gives one; else {@code calcPGMinResources}
 * ({@code util.go:108-145}): the replica types in order of the value of their pod template's {@code priorityClassName}
 * (highest first; none, or a class that does not exist, counts 0), and of them the first {@code minMember} pods, each
 * adding every container's requests, or its limits when it has no requests at all ({@code AddResourceList},
 * {@code util.go:79-104}); init containers are not counted. Pure.
 *
 * <p>Two differences: replica types of the same priority are taken in name order (the operator's order is a Go map's,
 * random), which puts Workers after Chief, Master and PS; and {@code minMember} is native mode's, so an elastic PyTorchJob
 * counts its other replicas and {@code elasticPolicy.minReplicas} Workers, its gang at the minimum, where the operator
 * counts every replica.
 */
public final class GangResources {
    private static final String[] BINARY_SUFFIXES = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
    private static final BigDecimal KIBI = BigDecimal.valueOf(1024);
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

    private GangResources() {}

    /**
     * The PodGroup's {@code minResources}: resource names, in order, to quantities.
     *
     * @param priorityClasses the value of each PriorityClass, by name
     * @throws IllegalArgumentException if a quantity cannot be read (the readers report those as problems first)
     */
    public static ObjectNode minResources(NativeJob job, int minMember, Map<String, Integer> priorityClasses) {
        requireNonNull(job, "job is null");
        requireNonNull(priorityClasses, "priorityClasses is null");
        if (job.job().schedulingPolicy().minResources().isPresent()) {
            return job.job().schedulingPolicy().minResources().get().deepCopy();
        }
        List<Map.Entry<String, ReplicaSpec>> types = new ArrayList<>(job.replicaSpecs().entrySet());
        types.sort(Comparator.<Map.Entry<String, ReplicaSpec>>comparingInt(entry -> -priority(entry.getValue(), priorityClasses))
                .thenComparing(Map.Entry::getKey));
        Map<String, BigDecimal> sums = new TreeMap<>();
        Map<String, Boolean> binary = new TreeMap<>();
        int pods = 0;
        for (Map.Entry<String, ReplicaSpec> type : types) {
            for (int index = 0; index < type.getValue().replicas() && pods < minMember; index++) {
                pods++;
                for (JsonNode container : type.getValue().template().path("spec").path("containers")) {
                    JsonNode resources = container.path("resources");
                    JsonNode requests = resources.path("requests");
                    // Go's nil map: a container that names no requests is counted by its limits
                    JsonNode counted = requests.isMissingNode() || requests.isNull() ? resources.path("limits") : requests;
                    for (Map.Entry<String, JsonNode> quantity : counted.properties()) {
                        String text = quantity.getValue().asText();
                        sums.merge(quantity.getKey(), Quantities.parse(text), BigDecimal::add);
                        binary.putIfAbsent(quantity.getKey(), text.endsWith("i"));
                    }
                }
            }
        }
        ObjectNode list = JsonNodeFactory.instance.objectNode();
        sums.forEach((name, sum) -> list.put(name, format(sum, binary.get(name))));
        return list;
    }

    /** Each PriorityClass's {@code value}, by name: what {@link #minResources} orders replica types by. */
    static ImmutableMap<String, Integer> priorityValues(List<GenericKubernetesResource> priorityClasses) {
        return priorityClasses.stream().collect(ImmutableMap.toImmutableMap(priorityClass -> priorityClass.getMetadata().getName(),
                priorityClass -> priorityClass.getAdditionalProperties().get("value") instanceof Number value ? value.intValue() : 0,
                (first, second) -> first));
    }

    private static int priority(ReplicaSpec spec, Map<String, Integer> priorityClasses) {
        JsonNode name = spec.template().path("spec").path("priorityClassName");
        return name.isTextual() ? priorityClasses.getOrDefault(name.asText(), 0) : 0;
    }

    /**
     * A quantity's text: a whole number with the largest binary suffix that divides it when the first quantity summed had a
     * binary suffix ({@code 1536Mi}), else a whole number ({@code 4}), else milli-units ({@code 1500m}), else a decimal.
     */
    static String format(BigDecimal value, boolean binary) {
        BigDecimal plain = value.stripTrailingZeros();
        boolean whole = plain.scale() <= 0;
        if (whole && binary && plain.signum() > 0) {
            for (int power = BINARY_SUFFIXES.length; power > 0; power--) {
                BigDecimal unit = KIBI.pow(power);
                if (plain.remainder(unit).signum() == 0) {
                    return plain.divide(unit).toBigInteger() + BINARY_SUFFIXES[BINARY_SUFFIXES.length - power];
                }
            }
        }
        if (whole) {
            return plain.toBigInteger().toString();
        }
        BigDecimal milli = plain.multiply(THOUSAND).stripTrailingZeros();
        return milli.scale() <= 0 ? milli.toBigInteger() + "m" : plain.toPlainString();
    }
}
