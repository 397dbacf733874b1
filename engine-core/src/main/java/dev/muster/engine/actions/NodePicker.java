package dev.muster.engine.actions;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.FitErrors;
import dev.muster.engine.framework.FitFailure;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.Statement;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

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
    private final NodeFits remembered;
    private int nextStart;
    // reused for every task's scores
    private double[] scores = new double[0];
    // the last scan's feasible nodes split by where the task fits, for the best() call that follows
    private Optional<Split> lastSplit = Optional.empty();
    // the lists of that split, cleared by the next scan: only best() reads them, before it
    private final List<NodeState> idleScratch = new ArrayList<>();
    private final List<NodeState> futureScratch = new ArrayList<>();

    NodePicker(Session session) {
        this.session = requireNonNull(session, "session is null");
        this.remembered = new NodeFits(session.nodes().size());
    }

    /** The result of filtering: feasible nodes, and why the others failed. */
    record Filtered(List<NodeState> feasible, FitErrors errors) {}

    private record Split(TaskState task, List<NodeState> feasible, List<NodeState> idle, List<NodeState> future) {}

    /** How many feasible nodes are enough, Volcano's adaptive percentage (between 5% and 50%). */
    static int feasibleNodesToFind(int nodes) {
        if (nodes <= MINIMUM_FEASIBLE_NODES) {
            return nodes;
        }
        int percentage = Math.max(5, 50 - nodes / 125);
        return Math.max(MINIMUM_FEASIBLE_NODES, nodes * percentage / 100);
    }

    Filtered filter(TaskState task, List<NodeState> nodes, boolean checkResources) {
        lastSplit = Optional.empty();
        Optional<NodeFits.Verdicts> verdicts = checkResources ? verdicts(task) : Optional.empty();
        List<NodeState> idle = idleScratch;
        List<NodeState> future = futureScratch;
        idle.clear();
        future.clear();
        Predicate<NodeState> feasible = verdicts.isPresent()
                ? node -> switch (fit(task, node, verdicts.get())) {
                    case IDLE -> idle.add(node);
                    case FUTURE -> future.add(node);
                    case NONE -> false;
                }
                : node -> fits(task, node, checkResources).isEmpty();
        Filtered filtered = scan(task, nodes, feasible, checkResources
                ? (node, errors) -> whyNot(task, node, errors)
                : (node, errors) -> reasons(session.plugins().filter(task, node)).forEach(errors::add));
        if (verdicts.isPresent()) {
            lastSplit = Optional.of(new Split(task, filtered.feasible(), idle, future));
        }
        return filtered;
    }

    /** Why the task does not fit the node, resources first: one reason per missing resource, as kube-scheduler counts them. */
    private void whyNot(TaskState task, NodeState node, FitErrors errors) {
        if (!task.initRequest().lessEqual(node.futureIdle(), Resources.Missing.ZERO)) {
            for (String resource : task.initRequest().insufficientAgainst(node.futureIdle())) {
                errors.addInsufficient(resource, task.initRequest(), node.futureIdle());
            }
            return;
        }
        reasons(session.plugins().filter(task, node)).forEach(errors::add);
    }

    /**
     * Why no node has room for the task now (its filters and its request against each node's future
     * idle), or empty when one has. Unlike {@link #filter}, this leaves the round-robin start where it
     * is, so asking it changes no placement.
     */
    Optional<FitErrors> whyNoNodeFits(TaskState task, List<NodeState> nodes) {
        Optional<NodeFits.Verdicts> verdicts = verdicts(task);
        for (NodeState node : nodes) {
            boolean room = verdicts.isPresent() ? fit(task, node, verdicts.get()) != NodeFits.Fit.NONE : fits(task, node, true).isEmpty();
            if (room) {
                return Optional.empty();
            }
        }
        FitErrors errors = new FitErrors();
        for (NodeState node : nodes) {
            whyNot(task, node, errors);
        }
        return Optional.of(errors);
    }

    /**
     * The nodes where evicting pods could make room for the task (Volcano's predicate for preempt and
     * reclaim): the plugins' filters pass, or fail only for reasons that evictions can resolve. The
     * node's resources are not checked here; the actions weigh them against the victims.
     */
    Filtered filterForEviction(TaskState task, List<NodeState> nodes) {
        Function<NodeState, List<String>> unresolvable =
                node -> reasons(session.plugins().filter(task, node).filter(failure -> !failure.resolvable()));
        return scan(task, nodes, node -> unresolvable.apply(node).isEmpty(), (node, errors) -> unresolvable.apply(node).forEach(errors::add));
    }

    private static List<String> reasons(Optional<FitFailure> failure) {
        return failure.map(found -> List.of(found.reason())).orElse(List.of());
    }

    /**
     * Checks nodes from where the last scan stopped until enough are feasible. Why the others failed
     * matters only when none is feasible, so the reasons are worked out then, off the hot path.
     */
    private Filtered scan(TaskState task, List<NodeState> nodes, Predicate<NodeState> feasibleNode,
            BiConsumer<NodeState, FitErrors> reasons) {
        requireNonNull(task, "task is null");
        int wanted = feasibleNodesToFind(nodes.size());
        List<NodeState> feasible = new ArrayList<>(wanted);
        int size = nodes.size();
        int start = size <= MINIMUM_FEASIBLE_NODES ? 0 : nextStart % size;
        int scanned = 0;
        // index runs from start to the end, then wraps to 0: the same order as (start + scanned) % size
        for (int index = start; scanned < size && feasible.size() < wanted; scanned++) {
            NodeState node = nodes.get(index);
            if (feasibleNode.test(node)) {
                feasible.add(node);
            }
            index = index + 1 == size ? 0 : index + 1;
        }
        if (size > MINIMUM_FEASIBLE_NODES) {
            nextStart = (start + scanned) % size;
        }
        FitErrors errors = new FitErrors();
        if (feasible.isEmpty()) {
            for (NodeState node : nodes) {
                reasons.accept(node, errors);
            }
        }
        return new Filtered(feasible, errors);
    }

    /** The remembered verdicts for tasks like this one, when every filter can say what it reads of a task. */
    private Optional<NodeFits.Verdicts> verdicts(TaskState task) {
        return session.plugins().filterKey(task).map(keys -> remembered.forKey(List.of(task.initRequest(), keys)));
    }

    /** Whether and where the task fits the node (filters and resources), remembered per node version. */
    private NodeFits.Fit fit(TaskState task, NodeState node, NodeFits.Verdicts verdicts) {
        NodeFits.Fit fit = verdicts.get(node);
        if (fit != null) {
            return fit;
        }
        if (fits(task, node, true).isPresent()) {
            return verdicts.put(node, NodeFits.Fit.NONE);
        }
        // fits() checked the future idle, so a node whose idle falls short fits its future idle
        return verdicts.put(node, placement(task.initRequest(), node));
    }

    /** Where a request goes on a node: its idle, else its future idle, else nowhere. */
    private static NodeFits.Fit placement(Resources request, NodeState node) {
        if (request.lessEqual(node.idle(), Resources.Missing.ZERO)) {
            return NodeFits.Fit.IDLE;
        }
        if (request.lessEqual(node.futureIdle(), Resources.Missing.ZERO)) {
            return NodeFits.Fit.FUTURE;
        }
        return NodeFits.Fit.NONE;
    }

    Optional<FitFailure> fits(TaskState task, NodeState node, boolean checkResources) {
        if (checkResources && !task.initRequest().lessEqual(node.futureIdle(), Resources.Missing.ZERO)) {
            return Optional.of(FitFailure.resolvable("Insufficient "
                    + String.join(", ", task.initRequest().insufficientAgainst(node.futureIdle()))));
        }
        return session.plugins().filter(task, node);
    }

    /**
     * The best node among feasible ones: nodes whose idle fits come first, then nodes whose future
     * idle fits; within a group the highest score, ties by name.
     */
    Optional<NodeState> best(TaskState task, List<NodeState> feasible) {
        List<NodeState> idle;
        List<NodeState> future;
        if (lastSplit.isPresent() && lastSplit.get().task() == task && lastSplit.get().feasible() == feasible) {
            // the scan that found these nodes has just split them
            idle = lastSplit.get().idle();
            future = lastSplit.get().future();
        } else {
            idle = new ArrayList<>(feasible.size());
            future = new ArrayList<>();
            for (NodeState node : feasible) {
                switch (placement(task.initRequest(), node)) {
                    case IDLE -> idle.add(node);
                    case FUTURE -> future.add(node);
                    case NONE -> {
                        // neither fits: not a candidate
                    }
                }
            }
        }
        Optional<NodeState> best = highestScore(task, idle);
        return best.isPresent() ? best : highestScore(task, future);
    }

    /** The nodes from the highest score to the lowest, ties by name (preempt tries them in this order). */
    List<NodeState> sortedByScore(TaskState task, List<NodeState> candidates) {
        List<NodeState> sorted = new ArrayList<>(candidates);
        if (sorted.size() <= 1 || !session.plugins().hasNodeScorers()) {
            sorted.sort(Comparator.comparing(NodeState::name));
            return sorted;
        }
        Map<NodeName, Double> scores = session.plugins().score(task, sorted);
        sorted.sort(Comparator.comparing((NodeState node) -> scores.getOrDefault(node.name(), 0.0)).reversed()
                .thenComparing(NodeState::name));
        return sorted;
    }

    /** The highest-scoring node, ties by name; without scorers, the first by name. */
    Optional<NodeState> highestScore(TaskState task, List<NodeState> candidates) {
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        if (candidates.size() == 1 || !session.plugins().hasNodeScorers()) {
            return candidates.stream().min((a, b) -> a.name().compareTo(b.name()));
        }
        if (scores.length < candidates.size()) {
            scores = new double[candidates.size()];
        }
        session.plugins().score(task, candidates, scores);
        NodeState best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < candidates.size(); i++) {
            NodeState node = candidates.get(i);
            double score = scores[i];
            // session nodes are indexed in name order, so the lower index is the name that comes first
            if (best == null || score > bestScore || (score == bestScore && node.index() < best.index())) {
                best = node;
                bestScore = score;
            }
        }
        return Optional.of(best);
    }

    /**
     * Places the task on the chosen node: allocated when the node's idle fits it, pipelined onto
     * resources being released when only its future idle does (Volcano's allocateResourcesForTask).
     */
    static void allocateOrPipeline(Statement statement, TaskState task, NodeState node) {
        if (task.initRequest().lessEqual(node.idle(), Resources.Missing.ZERO)) {
            statement.allocate(task, node.name());
        } else if (task.initRequest().lessEqual(node.futureIdle(), Resources.Missing.ZERO)) {
            statement.pipeline(task, node.name());
        }
    }
}
