package dev.muster.engine.plugins.resourcestrategyfit;

import static com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The resource-strategy-fit plugin's arguments, as in Volcano:
 *
 * <pre>{@code
 * resourceStrategyFitWeight: 10        # the plugin's weight (10); 0 turns the strategy score off
 * resources:                           # per resource (or prefix/*): type and weight
 *   nvidia.com/gpu: {type: MostAllocated, weight: 2}
 *   cpu: {type: LeastAllocated, weight: 1}
 * sra: {enable: true, resources: nvidia.com/gpu, weight: 10, resourceWeight: {nvidia.com/gpu: 1}}
 * proportional: {enable: true, resources: nvidia.com/gpu, resourceProportion: {nvidia.com/gpu.cpu: 4}}
 * }</pre>
 *
 * Without {@code resources} (or with an empty map), cpu and memory are LeastAllocated with weight 1.
 * A wildcard must be a single trailing {@code *} after a non-empty prefix; Volcano drops other
 * patterns with a warning, Muster rejects them, and likewise a negative plugin weight.
 */
public record ResourceStrategyFitArgs(
        @JsonProperty("resourceStrategyFitWeight") int weight,
        @JsonProperty("resources") ImmutableMap<String, ResourceStrategy> resources,
        @JsonProperty("sra") ScarceResourceAvoidanceArgs sra,
        @JsonProperty("proportional") ProportionalArgs proportional) {
    public static final ImmutableMap<String, ResourceStrategy> DEFAULT_RESOURCES = ImmutableMap.of(
            "cpu", new ResourceStrategy(ScoringType.LeastAllocated, 1),
            "memory", new ResourceStrategy(ScoringType.LeastAllocated, 1));
    public static final ResourceStrategyFitArgs DEFAULTS =
            new ResourceStrategyFitArgs(10, DEFAULT_RESOURCES, ScarceResourceAvoidanceArgs.DISABLED, ProportionalArgs.DISABLED);

    public ResourceStrategyFitArgs {
        checkArgument(weight >= 0, "resourceStrategyFitWeight must not be negative: %s", weight);
        resources = resources.isEmpty() ? DEFAULT_RESOURCES : ImmutableMap.copyOf(resources);
        Objects.requireNonNull(sra, "sra is null");
        Objects.requireNonNull(proportional, "proportional is null");
        for (String pattern : resources.keySet()) {
            checkArgument(isValidPattern(pattern),
                    "resources: '%s' is not a resource name or a prefix with one trailing '*' (e.g. 'nvidia.com/*')", pattern);
        }
    }

    @JsonCreator
    static ResourceStrategyFitArgs of(
            @JsonProperty("resourceStrategyFitWeight") int weight,
            @JsonProperty("resources") Map<String, ResourceStrategy> resources,
            @JsonProperty("sra") ScarceResourceAvoidanceArgs sra,
            @JsonProperty("proportional") ProportionalArgs proportional) {
        return new ResourceStrategyFitArgs(weight,
                ImmutableMap.copyOf(Objects.requireNonNullElse(resources, Map.of())),
                Objects.requireNonNullElse(sra, ScarceResourceAvoidanceArgs.DISABLED),
                Objects.requireNonNullElse(proportional, ProportionalArgs.DISABLED));
    }

    static boolean isValidPattern(String pattern) {
        int star = pattern.indexOf('*');
        return star < 0 || (star > 0 && star == pattern.length() - 1);
    }

    /** A comma-separated list of resource names, trimmed, without empty entries or repeats. */
    static ImmutableList<String> split(String list) {
        List<String> names = new ArrayList<>();
        for (String part : list.split(",")) {
            String name = part.trim();
            if (!name.isEmpty() && !names.contains(name)) {
                names.add(name);
            }
        }
        return ImmutableList.copyOf(names);
    }
}
