package dev.muster.engine.plugins.resourcestrategyfit;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Resources;
import java.util.Map;
import java.util.Optional;

/**
 * The strategy part of resource-strategy-fit, 0..1 before the plugin weight: over the resources the
 * task requests that have a strategy, the weighted mean of {@code (used + request) / allocatable}
 * (MostAllocated) or its complement (LeastAllocated). A resource the node lacks adds nothing but
 * keeps its weight; one that would overflow the node zeroes the whole score.
 *
 * <p>Resources match the configured strategies exactly first, then the wildcard with the longest
 * prefix. A pod's annotations replace the configuration: one type for all, weights per exact name.
 */
final class StrategyScore {
    private final ImmutableMap<String, ResourceStrategy> strategies;
    private final boolean podLevel;
    private final Optional<ScoringType> podType;
    private final ImmutableMap<String, Integer> podWeights;

    private StrategyScore(ImmutableMap<String, ResourceStrategy> strategies, boolean podLevel, Optional<ScoringType> podType,
            ImmutableMap<String, Integer> podWeights) {
        this.strategies = requireNonNull(strategies, "strategies is null");
        this.podLevel = podLevel;
        this.podType = requireNonNull(podType, "podType is null");
        this.podWeights = requireNonNull(podWeights, "podWeights is null");
    }

    static StrategyScore configured(ImmutableMap<String, ResourceStrategy> strategies) {
        return new StrategyScore(strategies, false, Optional.empty(), ImmutableMap.of());
    }

    /** A pod's own strategy; a type other than the two known ones scores 0 but still counts weights, as in Volcano. */
    static StrategyScore podLevel(String type, Map<String, Integer> weights) {
        Optional<ScoringType> parsed = switch (type) {
            case "LeastAllocated" -> Optional.of(ScoringType.LeastAllocated);
            case "MostAllocated" -> Optional.of(ScoringType.MostAllocated);
            default -> Optional.empty();
        };
        return new StrategyScore(ImmutableMap.of(), true, parsed, ImmutableMap.copyOf(weights));
    }

    double score(Resources request, Resources allocatable, Resources used) {
        double score = 0;
        int weightSum = 0;
        for (String resource : request.requestedNames()) {
            Optional<ScoringType> type;
            int weight;
            if (podLevel) {
                Integer podWeight = podWeights.get(resource);
                if (podWeight == null) {
                    continue;
                }
                type = podType;
                weight = podWeight;
            } else {
                Optional<ResourceStrategy> strategy = strategyOf(resource);
                if (strategy.isEmpty()) {
                    continue;
                }
                type = Optional.of(strategy.get().type());
                weight = strategy.get().weight();
            }
            double capacity = allocatable.get(resource);
            if (type.isPresent() && weight != 0 && capacity != 0) {
                double usedFinally = request.get(resource) + used.get(resource);
                if (usedFinally > capacity) {
                    return 0;
                }
                score += switch (type.get()) {
                    case MostAllocated -> usedFinally * weight / capacity;
                    case LeastAllocated -> (capacity - usedFinally) * weight / capacity;
                };
            }
            weightSum += weight;
        }
        return weightSum > 0 ? score / weightSum : score;
    }

    Optional<ResourceStrategy> strategyOf(String resource) {
        ResourceStrategy exact = strategies.get(resource);
        if (exact != null) {
            return Optional.of(exact);
        }
        String bestPrefix = "";
        ResourceStrategy best = null;
        for (Map.Entry<String, ResourceStrategy> entry : strategies.entrySet()) {
            String pattern = entry.getKey();
            if (!pattern.endsWith("*")) {
                continue;
            }
            String prefix = pattern.substring(0, pattern.length() - 1);
            if (resource.startsWith(prefix) && prefix.length() > bestPrefix.length()) {
                bestPrefix = prefix;
                best = entry.getValue();
            }
        }
        return Optional.ofNullable(best);
    }
}
