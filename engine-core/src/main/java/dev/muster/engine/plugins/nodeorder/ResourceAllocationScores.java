package dev.muster.engine.plugins.nodeorder;

import static dev.muster.engine.model.Resources.CPU;
import static dev.muster.engine.model.Resources.MEMORY;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * kube-scheduler's resource scores as Volcano's nodeorder configures them: NodeResourcesFit with the
 * LeastAllocated (cpu 50, memory 50) and MostAllocated (cpu 1, memory 1) strategies, and
 * NodeResourcesBalancedAllocation over cpu, memory and {@code nvidia.com/gpu}. Each is 0..100 in
 * Kubernetes' integer arithmetic, truncating divisions included, so scores match Volcano's exactly.
 *
 * <p>What the node has requested is what Kubernetes' node info holds in a Volcano session: the pods
 * on the node at the start, plus those allocated or pipelined since, minus those evicted since
 * (Volcano's predicates plugin keeps that view current). Fit counts a pod that requests no cpu or no
 * memory as requesting 100m or 200Mi (Kubernetes' non-zero defaults); the model knows only a pod's
 * total request, so a pod where only some containers omit a request is not bumped.
 */
final class ResourceAllocationScores {
    static final long MAX_NODE_SCORE = 100;
    static final long DEFAULT_MILLI_CPU_REQUEST = 100;
    static final long DEFAULT_MEMORY_REQUEST = 200L * 1024 * 1024;

    /** A resource and its weight in a Fit strategy. */
    record WeightedResource(String name, long weight) {}

    static final ImmutableList<WeightedResource> LEAST_ALLOCATED =
            ImmutableList.of(new WeightedResource(CPU, 50), new WeightedResource(MEMORY, 50));
    static final ImmutableList<WeightedResource> MOST_ALLOCATED =
            ImmutableList.of(new WeightedResource(CPU, 1), new WeightedResource(MEMORY, 1));
    static final ImmutableList<String> BALANCED = ImmutableList.of(CPU, MEMORY, Resources.GPU);

    private ResourceAllocationScores() {}

    /** Favors nodes with more unrequested capacity. */
    static long leastAllocated(TaskState task, NodeState node) {
        return fit(task, node, LEAST_ALLOCATED, true);
    }

    /** Favors nodes with less unrequested capacity (bin packing). */
    static long mostAllocated(TaskState task, NodeState node) {
        return fit(task, node, MOST_ALLOCATED, false);
    }

    private static long fit(TaskState task, NodeState node, List<WeightedResource> resources, boolean least) {
        Resources requestedOnNode = nonZeroRequested(node);
        long score = 0;
        long weightSum = 0;
        for (WeightedResource resource : resources) {
            long podRequest = nonZeroRequest(task.initRequest(), resource.name());
            if (podRequest == 0 && isScalar(resource.name())) {
                continue;
            }
            long allocatable = allocatable(node, resource.name());
            if (allocatable == 0) {
                continue;
            }
            long requested = round(requestedOnNode.get(resource.name())) + podRequest;
            long resourceScore = least ? leastRequestedScore(requested, allocatable) : mostRequestedScore(requested, allocatable);
            score += resourceScore * resource.weight();
            weightSum += resource.weight();
        }
        return weightSum == 0 ? 0 : score / weightSum;
    }

    static long leastRequestedScore(long requested, long capacity) {
        if (capacity == 0 || requested > capacity) {
            return 0;
        }
        return (capacity - requested) * MAX_NODE_SCORE / capacity;
    }

    static long mostRequestedScore(long requested, long capacity) {
        if (capacity == 0) {
            return 0;
        }
        // requested may exceed capacity because pods without requests count the non-zero defaults
        return Math.min(requested, capacity) * MAX_NODE_SCORE / capacity;
    }

    /**
     * Favors nodes whose requested fractions of cpu, memory and (when the pod asks for it) gpu are
     * close to each other: {@code (1 - standard deviation) * 100}. Empty for a best-effort pod, which
     * Kubernetes does not score here.
     */
    static OptionalLong balancedAllocation(TaskState task, NodeState node) {
        Resources request = task.initRequest();
        boolean bestEffort = true;
        for (String name : BALANCED) {
            if (round(request.get(name)) != 0) {
                bestEffort = false;
            }
        }
        if (bestEffort) {
            return OptionalLong.empty();
        }
        Resources requestedOnNode = requested(node);
        List<Double> fractions = new ArrayList<>();
        for (String name : BALANCED) {
            long podRequest = round(request.get(name));
            if (podRequest == 0 && isScalar(name)) {
                continue;
            }
            long allocatable = allocatable(node, name);
            if (allocatable == 0) {
                continue;
            }
            long requested = round(requestedOnNode.get(name)) + podRequest;
            fractions.add(Math.min((double) requested / allocatable, 1.0));
        }
        return OptionalLong.of((long) ((1 - standardDeviation(fractions)) * MAX_NODE_SCORE));
    }

    private static double standardDeviation(List<Double> fractions) {
        if (fractions.size() < 2) {
            return 0;
        }
        if (fractions.size() == 2) {
            return Math.abs((fractions.get(0) - fractions.get(1)) / 2);
        }
        double mean = fractions.stream().mapToDouble(Double::doubleValue).sum() / fractions.size();
        double sum = 0;
        for (double fraction : fractions) {
            sum += (fraction - mean) * (fraction - mean);
        }
        return Math.sqrt(sum / fractions.size());
    }

    /** What the pods on the node request, as Kubernetes' node info in the session counts it. */
    static Resources requested(NodeState node) {
        Resources requested = node.used().add(node.pipelined());
        for (TaskState task : node.tasks()) {
            if (evictedThisSession(task)) {
                requested = requested.subtract(task.request());
            }
        }
        return requested;
    }

    /** {@link #requested}, with pods that request no cpu or memory counted at the defaults. */
    static Resources nonZeroRequested(NodeState node) {
        Resources requested = requested(node);
        double cpu = requested.milliCpu();
        double memory = requested.memory();
        for (TaskState task : node.tasks()) {
            if (evictedThisSession(task)) {
                continue;
            }
            if (task.request().milliCpu() < Resources.EPSILON) {
                cpu += DEFAULT_MILLI_CPU_REQUEST;
            }
            if (task.request().memory() < Resources.EPSILON) {
                memory += DEFAULT_MEMORY_REQUEST;
            }
        }
        return new Resources(cpu, memory, requested.scalars());
    }

    private static boolean evictedThisSession(TaskState task) {
        return task.status() == TaskStatus.RELEASING && task.task().status() != TaskStatus.RELEASING;
    }

    private static long nonZeroRequest(Resources request, String name) {
        long value = round(request.get(name));
        if (value != 0) {
            return value;
        }
        return switch (name) {
            case CPU -> DEFAULT_MILLI_CPU_REQUEST;
            case MEMORY -> DEFAULT_MEMORY_REQUEST;
            default -> 0;
        };
    }

    private static long allocatable(NodeState node, String name) {
        if (isScalar(name) && !node.allocatable().has(name)) {
            return 0;
        }
        return round(node.allocatable().get(name));
    }

    private static boolean isScalar(String name) {
        return !name.equals(CPU) && !name.equals(MEMORY);
    }

    private static long round(double quantity) {
        return Math.round(quantity);
    }
}
