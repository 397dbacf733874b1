package dev.muster.engine.actions;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.FitErrors;
import dev.muster.engine.framework.FitFailure;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the nodes a task fits and picks the best, as Volcano's allocate does: filter by future idle
 * and the plugins' predicates, prefer nodes whose idle (not just future idle) fits, then the highest
 * summed score; ties go to the node that comes first by name, so decisions are reproducible.
 *
 * <p>Like kube-scheduler and Volcano, a large cluster is not scanned whole for every task: the scan
 * stops after enough feasible nodes and the next task starts where it stopped. Not thread-safe: one
 * picker per action run.
 */
final class NodePicker {
    /** Clusters up to this size are always scanned whole (Volcano's minimum feasible nodes). */
    static final int MINIMUM_FEASIBLE_NODES = 100;

    private final Session session;
    private int nextStart;

    NodePicker(Session session) {
        this.session = requireNonNull(session, "session is null");
    }

    /** The result of filtering: feasible nodes, and why the others failed. */
    record Filtered(List<NodeState> feasible, FitErrors errors) {}

    /** How many feasible nodes are enough, Volcano's adaptive percentage (between 5% and 50%). */
    static int feasibleNodesToFind(int nodes) {
        if (nodes <= MINIMUM_FEASIBLE_NODES) {
            return nodes;
        }
        int percentage = Math.max(5, 50 - nodes / 125);
        return Math.max(MINIMUM_FEASIBLE_NODES, nodes * percentage / 100);
    }

    Filtered filter(TaskState task, List<NodeState> nodes, boolean checkResources) {
        List<NodeState> feasible = new ArrayList<>();
        FitErrors errors = new FitErrors();
        int wanted = feasibleNodesToFind(nodes.size());
        int size = nodes.size();
        int start = size <= MINIMUM_FEASIBLE_NODES ? 0 : nextStart % size;
        int scanned = 0;
        for (; scanned < size && feasible.size() < wanted; scanned++) {
            NodeState node = nodes.get((start + scanned) % size);
            if (checkResources && !task.initRequest().lessEqual(node.futureIdle(), Resources.Missing.ZERO)) {
                // one reason per missing resource, as kube-scheduler counts them
                for (String resource : task.initRequest().insufficientAgainst(node.futureIdle())) {
                    errors.add("Insufficient " + resource);
                }
                continue;
            }
            Optional<FitFailure> failure = session.plugins().filter(task, node);
            if (failure.isPresent()) {
                errors.add(failure.get().reason());
            } else {
                feasible.add(node);
            }
        }
        if (size > MINIMUM_FEASIBLE_NODES) {
            nextStart = (start + scanned) % size;
        }
        return new Filtered(feasible, errors);
    }

    Optional<FitFailure> fits(TaskState task, NodeState node, boolean checkResources) {
        if (checkResources && !task.initRequest().lessEqual(node.futureIdle(), Resources.Missing.ZERO)) {
            Set<String> insufficient = task.initRequest().insufficientAgainst(node.futureIdle());
            return Optional.of(FitFailure.resolvable("Insufficient " + String.join(", ", insufficient)));
        }
        return session.plugins().filter(task, node);
    }

    /**
     * The best node among feasible ones: nodes whose idle fits come first, then nodes whose future
     * idle fits; within a group the highest score, ties by name.
     */
    Optional<NodeState> best(TaskState task, List<NodeState> feasible) {
        List<NodeState> idle = new ArrayList<>();
        List<NodeState> future = new ArrayList<>();
        for (NodeState node : feasible) {
            if (task.initRequest().lessEqual(node.idle(), Resources.Missing.ZERO)) {
                idle.add(node);
            } else if (task.initRequest().lessEqual(node.futureIdle(), Resources.Missing.ZERO)) {
                future.add(node);
            }
        }
        for (List<NodeState> candidates : List.of(idle, future)) {
            Optional<NodeState> best = highestScore(task, candidates);
            if (best.isPresent()) {
                return best;
            }
        }
        return Optional.empty();
    }

    /** The highest-scoring node, ties by name; without scorers, the first by name. */
    Optional<NodeState> highestScore(TaskState task, List<NodeState> candidates) {
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        if (candidates.size() == 1 || !session.plugins().hasNodeScorers()) {
            return candidates.stream().min((a, b) -> a.name().compareTo(b.name()));
        }
        Map<NodeName, Double> scores = session.plugins().score(task, candidates);
        NodeState best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (NodeState node : candidates) {
            double score = scores.getOrDefault(node.name(), 0.0);
            if (best == null || score > bestScore || (score == bestScore && node.name().compareTo(best.name()) < 0)) {
                best = node;
                bestScore = score;
            }
        }
        return Optional.of(best);
    }
}
