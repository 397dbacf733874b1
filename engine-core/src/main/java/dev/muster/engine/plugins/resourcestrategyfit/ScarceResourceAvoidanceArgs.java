package dev.muster.engine.plugins.resourcestrategyfit;

import static com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code sra} (scarce resource avoidance) arguments: keep tasks that do not need a scarce
 * resource off the nodes that have it. {@code resources} is a comma-separated list, each with a
 * weight in {@code resourceWeight} (1 when absent).
 */
public record ScarceResourceAvoidanceArgs(
        boolean enable, String resources, int weight, ImmutableMap<String, Integer> resourceWeight) {
    public static final ScarceResourceAvoidanceArgs DISABLED = new ScarceResourceAvoidanceArgs(false, "", 0, ImmutableMap.of());

    public ScarceResourceAvoidanceArgs {
        Objects.requireNonNull(resources, "resources is null");
        resourceWeight = ImmutableMap.copyOf(resourceWeight);
        ImmutableList<String> listed = ResourceStrategyFitArgs.split(resources);
        if (enable) {
            // Volcano reads a missing weight as 0, which silently turns sra off
            checkArgument(weight > 0, "sra.weight must be positive when sra.enable is true: %s", weight);
        }
        for (Map.Entry<String, Integer> entry : resourceWeight.entrySet()) {
            checkArgument(listed.contains(entry.getKey()), "sra.resourceWeight: resource '%s' is not listed in sra.resources (listed: %s)",
                    entry.getKey(), String.join(", ", listed));
            checkArgument(entry.getValue() >= 0, "sra.resourceWeight.%s must not be negative: %s", entry.getKey(), entry.getValue());
        }
    }

    @JsonCreator
    static ScarceResourceAvoidanceArgs of(
            @JsonProperty("enable") Boolean enable,
            @JsonProperty("resources") String resources,
            @JsonProperty("weight") Integer weight,
            @JsonProperty("resourceWeight") Map<String, Integer> resourceWeight) {
        // unset fields read as Volcano reads them: false, "", 0
        return new ScarceResourceAvoidanceArgs(Objects.requireNonNullElse(enable, false), Objects.requireNonNullElse(resources, ""),
                Objects.requireNonNullElse(weight, 0),
                ImmutableMap.copyOf(Objects.requireNonNullElse(resourceWeight, Map.of())));
    }

    /** Each listed resource's weight, in the order listed. */
    public ImmutableMap<String, Integer> weights() {
        Map<String, Integer> weights = new LinkedHashMap<>();
        for (String name : ResourceStrategyFitArgs.split(resources)) {
            weights.put(name, resourceWeight.getOrDefault(name, 1));
        }
        return ImmutableMap.copyOf(weights);
    }
}
