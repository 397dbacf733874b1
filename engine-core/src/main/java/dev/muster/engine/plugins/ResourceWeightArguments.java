package dev.muster.engine.plugins;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.config.Suggestions;
import dev.muster.engine.model.Resources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's family of binpack-style arguments: {@code <prefix>: "nvidia.com/gpu, example.com/foo"}
 * lists the scalar resources to weigh, and {@code <prefix>.<name>: <weight>} weighs each (1 when
 * unset); cpu and memory have their own keys. Shared by binpack and network-topology-aware.
 */
public final class ResourceWeightArguments {
    private ResourceWeightArguments() {}

    /** The listed resource names, in order, without blanks or repeats. */
    public static ImmutableList<String> listed(String resources) {
        List<String> names = new ArrayList<>();
        for (String name : Splitter.on(',').trimResults().omitEmptyStrings().split(resources)) {
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return ImmutableList.copyOf(names);
    }

    /**
     * Checks the {@code <prefix>.<name>} weights: every other key is unknown (with a did-you-mean
     * among {@code known}), every weighted resource must be listed, and no weight may be negative.
     */
    public static void check(Map<String, Integer> weightArguments, String resourcesKey, List<String> listed, List<String> known) {
        String prefix = resourcesKey + ".";
        for (Map.Entry<String, Integer> entry : weightArguments.entrySet()) {
            String key = entry.getKey();
            if (!key.startsWith(prefix)) {
                throw new IllegalArgumentException("unknown argument '" + key + "'" + Suggestions.didYouMean(key, known)
                        + " (known: " + String.join(", ", known) + ")");
            }
            String name = key.substring(prefix.length());
            checkArgument(listed.contains(name), "%s: resource '%s' is not listed in %s (listed: %s)",
                    key, name, resourcesKey, listed.isEmpty() ? "none" : String.join(", ", listed));
            checkArgument(entry.getValue() >= 0, "%s must not be negative: %s", key, entry.getValue());
        }
    }

    /** The weight of each resource: cpu, memory, then the listed ones in order. */
    public static ImmutableMap<String, Integer> weights(int cpu, int memory, String resourcesKey, String resources,
            Map<String, Integer> weightArguments) {
        Map<String, Integer> weights = new LinkedHashMap<>();
        weights.put(Resources.CPU, cpu);
        weights.put(Resources.MEMORY, memory);
        for (String name : listed(resources)) {
            weights.put(name, weightArguments.getOrDefault(resourcesKey + "." + name, 1));
        }
        return ImmutableMap.copyOf(weights);
    }
}
