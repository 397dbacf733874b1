package dev.muster.engine.plugins.binpack;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.Resources;
import dev.muster.engine.plugins.ResourceWeightArguments;
import java.util.List;
import java.util.Map;

/**
 * The binpack plugin's arguments, with Volcano's names and defaults:
 *
 * <pre>{@code
 * binpack.weight: 10                                  # the plugin's weight (1); 0 turns it off
 * binpack.cpu: 5                                      # cpu's weight (1)
 * binpack.memory: 1                                   # memory's weight (1)
 * binpack.resources: nvidia.com/gpu, example.com/foo  # more resources to pack ("")
 * binpack.resources.nvidia.com/gpu: 2                 # a listed resource's weight (1)
 * }</pre>
 *
 * The last key is a family: any {@code binpack.resources.<name>} lands in {@code resourceWeightArguments},
 * and the constructor rejects keys outside the family, weights for resources that are not listed, and
 * negative resource weights (Volcano silently replaces those with 1). A negative
 * {@code binpack.weight} is honoured, as in Volcano: it spreads instead of packing.
 *
 * @param resourceWeightArguments the {@code binpack.resources.<name>} arguments as written
 */
public record BinpackArgs(
        @JsonProperty("binpack.weight") int weight,
        @JsonProperty("binpack.cpu") int cpu,
        @JsonProperty("binpack.memory") int memory,
        @JsonProperty("binpack.resources") String resources,
        @JsonAnySetter @JsonAnyGetter Map<String, Integer> resourceWeightArguments) {
    public static final String WEIGHT = "binpack.weight";
    public static final String CPU = "binpack.cpu";
    public static final String MEMORY = "binpack.memory";
    public static final String RESOURCES = "binpack.resources";
    public static final String RESOURCE_PREFIX = RESOURCES + ".";

    public static final BinpackArgs DEFAULTS = new BinpackArgs(1, 1, 1, "", ImmutableMap.of());

    public BinpackArgs {
        requireNonNull(resources, "resources is null");
        requireNonNull(resourceWeightArguments, "resourceWeightArguments is null");
        resourceWeightArguments.forEach((key, value) -> checkArgument(value != null, "%s: a weight is required", key));
        resourceWeightArguments = ImmutableSortedMap.copyOf(resourceWeightArguments);
        checkArgument(cpu >= 0, "%s must not be negative: %s", CPU, cpu);
        checkArgument(memory >= 0, "%s must not be negative: %s", MEMORY, memory);
        List<String> listed = ResourceWeightArguments.listed(resources);
        for (String name : listed) {
            checkArgument(!name.equals(Resources.CPU) && !name.equals(Resources.MEMORY),
                    "%s: '%s' is weighted by %s, not listed here", RESOURCES, name, name.equals(Resources.CPU) ? CPU : MEMORY);
        }
        ResourceWeightArguments.check(resourceWeightArguments, RESOURCES, listed,
                List.of(WEIGHT, CPU, MEMORY, RESOURCES, RESOURCE_PREFIX + "<name>"));
    }

    /** The weight of each resource binpack scores: cpu, memory, then the listed ones in order. */
    public ImmutableMap<String, Integer> weights() {
        return ResourceWeightArguments.weights(cpu, memory, RESOURCES, resources, resourceWeightArguments);
    }
}
