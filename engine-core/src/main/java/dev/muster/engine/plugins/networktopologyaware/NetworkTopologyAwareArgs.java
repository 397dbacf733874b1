package dev.muster.engine.plugins.networktopologyaware;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.plugins.ResourceWeightArguments;
import java.util.List;
import java.util.Map;

/**
 * The network-topology-aware plugin's arguments, with Volcano's names and defaults:
 *
 * <pre>{@code
 * weight: 10                                          # the plugin's weight (1)
 * hypernode.binpack.cpu: 5                            # cpu's weight in hypernode binpacking (1)
 * hypernode.binpack.memory: 1                         # memory's weight (1)
 * hypernode.binpack.resources: nvidia.com/gpu         # more resources to pack ("")
 * hypernode.binpack.resources.nvidia.com/gpu: 2       # a listed resource's weight (1)
 * hypernode.binpack.normal-pod.enable: true           # binpack pods without a topology by hypernode (true)
 * hypernode.binpack.normal-pod.fading: 0.8            # how much each tier up counts less for them (0.8)
 * hypernode.gradient.evict.max-hypernodes: 8          # hypernodes tried per eviction search (8)
 * }</pre>
 *
 * Volcano silently replaces negative values with the defaults; these are rejected, as are weights for
 * resources that are not listed and unknown keys.
 *
 * @param resourceWeightArguments the {@code hypernode.binpack.resources.<name>} arguments as written
 */
public record NetworkTopologyAwareArgs(
        @JsonProperty("weight") int weight,
        @JsonProperty("hypernode.binpack.cpu") int cpu,
        @JsonProperty("hypernode.binpack.memory") int memory,
        @JsonProperty("hypernode.binpack.resources") String resources,
        @JsonProperty("hypernode.binpack.normal-pod.enable") boolean normalPodEnable,
        @JsonProperty("hypernode.binpack.normal-pod.fading") double normalPodFading,
        @JsonProperty("hypernode.gradient.evict.max-hypernodes") int evictMaxHyperNodes,
        @JsonAnySetter @JsonAnyGetter Map<String, Integer> resourceWeightArguments) {
    public static final String WEIGHT = "weight";
    public static final String CPU = "hypernode.binpack.cpu";
    public static final String MEMORY = "hypernode.binpack.memory";
    public static final String RESOURCES = "hypernode.binpack.resources";
    public static final String RESOURCE_PREFIX = RESOURCES + ".";
    public static final String NORMAL_POD_ENABLE = "hypernode.binpack.normal-pod.enable";
    public static final String NORMAL_POD_FADING = "hypernode.binpack.normal-pod.fading";
    public static final String EVICT_MAX_HYPER_NODES = "hypernode.gradient.evict.max-hypernodes";

    public static final NetworkTopologyAwareArgs DEFAULTS = new NetworkTopologyAwareArgs(1, 1, 1, "", true, 0.8, 8, ImmutableMap.of());

    public NetworkTopologyAwareArgs {
        requireNonNull(resources, "resources is null");
        requireNonNull(resourceWeightArguments, "resourceWeightArguments is null");
        resourceWeightArguments.forEach((key, value) -> checkArgument(value != null, "%s: a weight is required", key));
        resourceWeightArguments = ImmutableSortedMap.copyOf(resourceWeightArguments);
        checkArgument(weight >= 0, "%s must not be negative: %s", WEIGHT, weight);
        checkArgument(cpu >= 0, "%s must not be negative: %s", CPU, cpu);
        checkArgument(memory >= 0, "%s must not be negative: %s", MEMORY, memory);
        checkArgument(normalPodFading >= 0, "%s must not be negative: %s", NORMAL_POD_FADING, normalPodFading);
        checkArgument(evictMaxHyperNodes > 0, "%s must be positive: %s", EVICT_MAX_HYPER_NODES, evictMaxHyperNodes);
        List<String> listed = ResourceWeightArguments.listed(resources);
        ResourceWeightArguments.check(resourceWeightArguments, RESOURCES, listed, List.of(WEIGHT, CPU, MEMORY, RESOURCES, RESOURCE_PREFIX + "<name>", NORMAL_POD_ENABLE,
                NORMAL_POD_FADING, EVICT_MAX_HYPER_NODES));
    }

    /** The weight of each resource hypernode binpacking scores: cpu, memory, then the listed ones in order. */
    public ImmutableMap<String, Integer> weights() {
        return ResourceWeightArguments.weights(cpu, memory, RESOURCES, resources, resourceWeightArguments);
    }
}
