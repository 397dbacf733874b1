package dev.muster.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.sim.Comparison;
import dev.muster.sim.metrics.RolePairs;
import dev.muster.sim.metrics.Summary;
import java.io.UncheckedIOException;

/**
 * The comparison as one JSON object: {@code {"workload": {...}, "policies": {"NAME": {"jobs": ..,
 * "completed": .., "avgJctSeconds": .., ...}}}}, policies in the order given. A run with two-role gangs
 * (PS/worker, DLRM's CN/HN) also gets its {@link RolePairs}: in all, and per application.
 */
final class SimulateJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SimulateJson() {}

    static String render(Comparison comparison) {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode workload = root.putObject("workload");
        workload.put("source", comparison.workload().source());
        workload.put("epoch", comparison.workload().epoch().toString());
        workload.put("jobs", comparison.workload().jobs().size());
        workload.put("skippedRows", comparison.workload().problems().size());
        workload.put("skippedJobs", comparison.workload().skippedJobs());
        workload.put("nodes", comparison.cluster().nodeCount());
        workload.put("offeredLoad", round(comparison.offeredLoad()));
        workload.put("offeredLoadWithinWindow", round(comparison.offeredLoadWithinWindow()));
        workload.put("avgJctWithoutWaitingSeconds", round(comparison.jctFloorSeconds()));
        ObjectNode policies = root.putObject("policies");
        for (int i = 0; i < comparison.runs().size(); i++) {
            Summary summary = comparison.summaries().get(i);
            ObjectNode policy = policies.putObject(comparison.runs().get(i).policy());
            policy.put("jobs", summary.jobs());
            policy.put("completed", summary.completed());
            policy.put("unschedulable", summary.unschedulable());
            policy.put("avgJctSeconds", round(summary.avgJctSeconds()));
            policy.put("p50JctSeconds", round(summary.p50JctSeconds()));
            policy.put("p95JctSeconds", round(summary.p95JctSeconds()));
            policy.put("p99JctSeconds", round(summary.p99JctSeconds()));
            policy.put("makespanSeconds", round(summary.makespanSeconds()));
            policy.put("avgQueueingSeconds", round(summary.avgQueueingSeconds()));
            policy.put("gpuAllocation", round(summary.gpuAllocation()));
            policy.put("cpuAllocation", round(summary.cpuAllocation()));
            policy.put("stuckJobs", summary.stuckJobs());
            policy.put("wastedGpuSeconds", round(summary.wastedGpuSeconds()));
            policy.put("jainFairness", round(summary.jainFairness()));
            policy.put("cycles", summary.cycles());
            policy.put("livelocked", summary.livelocked());
            policy.put("p99LargestJctSeconds", round(summary.p99LargestJctSeconds()));
            policy.put("evictions", summary.evictions());
            policy.put("p99EvictionsPerJob", summary.p99EvictionsPerJob());
            policy.put("maxEvictionsPerJob", summary.maxEvictionsPerJob());
            policy.put("p95QueueingSeconds", round(summary.p95QueueingSeconds()));
            policy.put("unplacedGangs", summary.unplacedGangs());
            RolePairs pairs = summary.rolePairs();
            if (pairs.pairs() > 0) {
                policy.put("rolePairs", pairs.pairs());
                policy.put("sameNodePairFraction", round(pairs.sameNodeFraction()));
                policy.put("sameRackPairFraction", round(pairs.sameRackFraction()));
                ObjectNode byApp = policy.putObject("rolePairsByApplication");
                RolePairs.byApplication(comparison.runs().get(i).gangs()).forEach((app, appPairs) -> byApp.putObject(app)
                        .put("pairs", appPairs.pairs()).put("sameNode", appPairs.sameNode()).put("sameRack", appPairs.sameRack()));
            }
        }
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Four decimals: enough for shares, and the same text for the same numbers. */
    private static double round(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }
}
