package dev.muster.engine.plugins.resourcestrategyfit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.framework.FitFailure;
import dev.muster.engine.framework.NodeFilter;
import dev.muster.engine.framework.NodeScorer;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Volcano's resource-strategy-fit: a per-resource LeastAllocated or MostAllocated score
 * ({@link StrategyScore}), optionally plus the scarce resource avoidance score ({@code sra}), and
 * optionally the proportional predicate, which keeps cpu and memory free in proportion to a scarce
 * resource left on a node for the tasks that will want it.
 */
public final class ResourceStrategyFitPlugin implements Plugin, NodeScorer, NodeFilter {
    public static final String NAME = "resource-strategy-fit";
    /** Pod annotation overriding the scoring type for all its resources. */
    public static final String SCORING_TYPE_ANNOTATION = "volcano.sh/resource-strategy-scoring-type";
    /** Pod annotation with the per-resource weights that go with the type, as JSON: {@code {"cpu": 1}}. */
    public static final String WEIGHT_ANNOTATION = "volcano.sh/resource-strategy-weight";

    private static final Logger log = LoggerFactory.getLogger(ResourceStrategyFitPlugin.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double MAX_NODE_SCORE = 100;
    private static final double BYTES_PER_GB = 1000 * 1000 * 1000;

    private final ResourceStrategyFitArgs args;
    private final ImmutableMap<String, Integer> sraWeights;
    private final ImmutableMap<String, ProportionalArgs.Rate> proportionalRates;

    ResourceStrategyFitPlugin(ResourceStrategyFitArgs args) {
        this.args = requireNonNull(args, "args is null");
        this.sraWeights = args.sra().enable() ? args.sra().weights() : ImmutableMap.of();
        this.proportionalRates = args.proportional().enable() ? args.proportional().rates() : ImmutableMap.of();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<NodeName, Double> score(TaskState task, List<NodeState> nodes) {
        int sraWeight = args.sra().enable() ? args.sra().weight() : 0;
        if (args.weight() == 0 && sraWeight == 0) {
            return Map.of();
        }
        Optional<StrategyScore> strategy = args.weight() == 0 ? Optional.empty() : strategyFor(task);
        Map<NodeName, Double> scores = new LinkedHashMap<>();
        for (NodeState node : nodes) {
            double score = 0;
            if (strategy.isPresent()) {
                score += strategy.get().score(task.request(), node.allocatable(), node.used()) * MAX_NODE_SCORE * args.weight();
            }
            if (sraWeight > 0) {
                score += scarceResourceAvoidance(task.request(), node.allocatable()) * MAX_NODE_SCORE * sraWeight;
            }
            scores.put(node.name(), score);
        }
        return scores;
    }

    /** The configured strategy, or the pod's own from its annotations; empty (score 0) when those are broken. */
    private Optional<StrategyScore> strategyFor(TaskState task) {
        Map<String, String> annotations = task.task().annotations();
        String type = annotations.getOrDefault(SCORING_TYPE_ANNOTATION, "");
        if (type.isEmpty()) {
            return Optional.of(StrategyScore.configured(args.resources()));
        }
        String weights = annotations.getOrDefault(WEIGHT_ANNOTATION, "");
        if (weights.isEmpty()) {
            log.debug("task={}: annotation {} is set but {} is missing; resource-strategy-fit scores 0", task.id(), SCORING_TYPE_ANNOTATION, WEIGHT_ANNOTATION);
            return Optional.empty();
        }
        try {
            Map<String, Integer> parsed = JSON.readValue(weights, new TypeReference<Map<String, Integer>>() {});
            return Optional.of(StrategyScore.podLevel(type, parsed));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            log.debug("task={}: annotation {} is not a JSON map of resource weights: {}", task.id(), WEIGHT_ANNOTATION, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * 0 when the node lacks a resource the task requests; otherwise 1 minus the weighted share of
     * the scarce resources the node has, so nodes without them are preferred.
     */
    double scarceResourceAvoidance(Resources request, Resources allocatable) {
        for (String resource : request.requestedNames()) {
            if (allocatable.get(resource) == 0) {
                return 0;
            }
        }
        double score = 0;
        int weightSum = 0;
        for (Map.Entry<String, Integer> entry : sraWeights.entrySet()) {
            weightSum += entry.getValue();
            if (allocatable.get(entry.getKey()) > 0) {
                score += entry.getValue();
            }
        }
        return weightSum > 0 ? 1 - score / weightSum : score;
    }

    @Override
    public Optional<FitFailure> filter(TaskState task, NodeState node) {
        if (proportionalRates.isEmpty()) {
            return Optional.empty();
        }
        Resources request = task.request();
        for (String resource : proportionalRates.keySet()) {
            if (request.scalars().getOrDefault(resource, 0.0) > 0) {
                return Optional.empty();
            }
        }
        Resources idle = node.idle();
        for (Map.Entry<String, ProportionalArgs.Rate> entry : proportionalRates.entrySet()) {
            Double left = idle.scalars().get(entry.getKey());
            if (left == null) {
                continue;
            }
            // the scarce resource is counted in milli-units, so the cpu rate per unit gives millicores
            double cpuReserved = left * entry.getValue().cpu();
            double memoryReserved = left * entry.getValue().memory() * BYTES_PER_GB / 1000;
            if (idle.milliCpu() - request.milliCpu() < cpuReserved || idle.memory() - request.memory() < memoryReserved) {
                return Optional.of(FitFailure.unresolvable("proportional of resource " + entry.getKey() + " check failed"));
            }
        }
        return Optional.empty();
    }

    /** Builds the plugin from its arguments. */
    public static final class Factory implements PluginFactory<ResourceStrategyFitArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<ResourceStrategyFitArgs> argsType() {
            return ResourceStrategyFitArgs.class;
        }

        @Override
        public ResourceStrategyFitArgs defaultArgs() {
            return ResourceStrategyFitArgs.DEFAULTS;
        }

        @Override
        public Plugin create(ResourceStrategyFitArgs args, Session session) {
            return new ResourceStrategyFitPlugin(args);
        }
    }
}
