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
 * The {@code proportional} arguments: for each scarce resource listed in {@code resources}, how much
 * cpu ({@code <resource>.cpu}, cores) and memory ({@code <resource>.memory}, GB) to keep free per
 * unit of it left on a node, so tasks that do not use it cannot strand it. Rates default to 1.
 */
public record ProportionalArgs(boolean enable, String resources, ImmutableMap<String, Double> resourceProportion) {
    public static final ProportionalArgs DISABLED = new ProportionalArgs(false, "", ImmutableMap.of());

    /** The cpu and memory to keep per unit of a scarce resource. */
    public record Rate(double cpu, double memory) {}

    public ProportionalArgs {
        Objects.requireNonNull(resources, "resources is null");
        resourceProportion = ImmutableMap.copyOf(resourceProportion);
        ImmutableList<String> listed = ResourceStrategyFitArgs.split(resources);
        for (Map.Entry<String, Double> entry : resourceProportion.entrySet()) {
            String key = entry.getKey();
            boolean known = listed.stream().anyMatch(name -> key.equals(name + ".cpu") || key.equals(name + ".memory"));
            checkArgument(known, "proportional.resourceProportion: '%s' is not <resource>.cpu or <resource>.memory of a resource in proportional.resources (listed: %s)",
                    key, String.join(", ", listed));
            checkArgument(entry.getValue() >= 0, "proportional.resourceProportion.%s must not be negative: %s", key, entry.getValue());
        }
    }

    @JsonCreator
    static ProportionalArgs of(
            @JsonProperty("enable") Boolean enable,
            @JsonProperty("resources") String resources,
            @JsonProperty("resourceProportion") Map<String, Double> resourceProportion) {
        return new ProportionalArgs(Objects.requireNonNullElse(enable, false), Objects.requireNonNullElse(resources, ""),
                ImmutableMap.copyOf(Objects.requireNonNullElse(resourceProportion, Map.of())));
    }

    /** The rates of each listed resource, in the order listed. */
    public ImmutableMap<String, Rate> rates() {
        Map<String, Rate> rates = new LinkedHashMap<>();
        for (String name : ResourceStrategyFitArgs.split(resources)) {
            rates.put(name, new Rate(resourceProportion.getOrDefault(name + ".cpu", 1.0), resourceProportion.getOrDefault(name + ".memory", 1.0)));
        }
        return ImmutableMap.copyOf(rates);
    }
}
