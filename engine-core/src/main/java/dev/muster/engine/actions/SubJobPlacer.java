package dev.muster.engine.actions;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.Statement;
import dev.muster.engine.framework.SubJobState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.topology.HyperNodeTree;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Places one subgroup within the hypernode chosen for its job, as Volcano's {@code allocateForSubJob}:
 * over the subgroup's own gradients, lowest tier first, it dry-runs the subgroup's tasks in every
 * candidate hypernode, and applies again the placement in the candidate the plugins score highest.
 * Not thread-safe.
 */
final class SubJobPlacer {
    private final Session session;
    private final NodePicker picker;

    /** A subgroup's placement: the statement holding it, and the score of the hypernode it went to. */
    record Placement(Statement statement, double score) {}

    SubJobPlacer(Session session, NodePicker picker) {
        this.session = requireNonNull(session, "session is null");
        this.picker = requireNonNull(picker, "picker is null");
    }

    /** Places what it can of the subgroup's tasks (taken off {@code tasks}) in the job's hypernode. */
    Optional<Placement> place(Queue queue, SubJobState subJob, PriorityQueue<TaskState> tasks, String jobHyperNode) {
        if (tasks.isEmpty()) {
            return Optional.empty();
        }
        JobState job = subJob.job();
        for (List<String> gradient : session.plugins().hyperNodeGradients(subJob, jobHyperNode)) {
            Map<String, Statement.Saved> solutions = new LinkedHashMap<>();
            Map<String, PriorityQueue<TaskState>> left = new LinkedHashMap<>();
            for (String hyperNode : gradient) {
                forgetFitErrors(job, subJob);
                PriorityQueue<TaskState> copy = new PriorityQueue<>(tasks);
                Optional<Statement> statement = placeTasks(queue, subJob, copy, hyperNode);
                if (statement.isPresent() && !statement.get().isEmpty()) {
                    solutions.put(hyperNode, Statement.save(List.of(statement.get())));
                    left.put(hyperNode, copy);
                    statement.get().discard();
                }
            }
            if (solutions.isEmpty()) {
                continue;
            }
            Map<String, Double> scores = session.plugins().scoreHyperNodes(subJob, List.copyOf(solutions.keySet()));
            String best = null;
            double bestScore = Double.NEGATIVE_INFINITY;
            for (String hyperNode : solutions.keySet()) {
                double score = scores.getOrDefault(hyperNode, 0.0);
                if (score > bestScore) {
                    best = hyperNode;
                    bestScore = score;
                }
            }
            Statement statement = session.newStatement();
            statement.replay(solutions.get(best));
            HyperNodeTree tree = session.hyperNodes();
            subJob.setAllocatedHyperNode(tree.lowestCommonAncestor(subJob.allocatedHyperNode(), Optional.of(best)));
            tasks.clear();
            tasks.addAll(left.get(best));
            return Optional.of(new Placement(statement, bestScore));
        }
        return Optional.empty();
    }

    /**
     * Volcano's {@code allocateResourcesForTasks} over one hypernode's nodes: tasks in order until the
     * subgroup is ready; kept when it is ready or pipelined, else undone.
     */
    private Optional<Statement> placeTasks(Queue queue, SubJobState subJob, PriorityQueue<TaskState> tasks, String hyperNode) {
        List<NodeState> nodes = session.nodesOf(hyperNode);
        if (nodes.isEmpty()) {
            return Optional.empty();
        }
        JobState job = subJob.job();
        Statement statement = session.newStatement();
        Set<String> failedRoles = failedRoles(job, subJob);
        Optional<String> allocated = subJob.allocatedHyperNode();
        QueueRefusal refusal = new QueueRefusal(session, picker, nodes);
        String where = hyperNode.equals(HyperNodeTree.CLUSTER_TOP) ? "" : " in hypernode " + hyperNode;
        while (!tasks.isEmpty()) {
            TaskState task = tasks.poll();
            if (!session.plugins().isAllocatable(queue, task)) {
                String reason = refusal.reason(queue, task);
                job.recordQueueNote(task.id(), refusal.noRoom(task).isPresent() ? reason + where : reason);
                continue;
            }
            String role = task.task().role();
            if (!role.isEmpty() && failedRoles.contains(role)) {
                job.recordFitError(task.id(), "another task of role " + role + " already fit no node");
                continue;
            }
            Optional<String> prefilter = session.plugins().prefilter(task);
            NodePicker.Filtered filtered = prefilter.isPresent() ? null : picker.filter(task, nodes, true);
            if (prefilter.isPresent() || filtered.feasible().isEmpty()) {
                job.recordFitError(task.id(), prefilter.orElseGet(() -> filtered.errors().describe(nodes.size())) + where);
                failedRoles.add(role);
                if (needContinueAllocating(subJob, failedRoles)) {
                    continue;
                }
                break;
            }
            if (subJob.withNetworkTopology()) {
                task.setJobAllocatedHyperNode(allocated);
            }
            Optional<NodeState> best = picker.best(task, filtered.feasible());
            if (best.isEmpty()) {
                continue;
            }
            NodeState node = best.get();
            NodePicker.allocateOrPipeline(statement, task, node);
            if (subJob.withNetworkTopology()) {
                allocated = withNode(allocated, node);
            }
            if (session.plugins().isSubJobReady(subJob)) {
                break;
            }
        }
        if (session.plugins().isSubJobReady(subJob) || session.plugins().isSubJobPipelined(subJob)) {
            return Optional.of(statement);
        }
        statement.discard();
        return Optional.empty();
    }

    /** The subgroup's hypernode grown to hold a node as well: its lowest-tier hypernode's common ancestor. */
    private Optional<String> withNode(Optional<String> allocated, NodeState node) {
        HyperNodeTree tree = session.hyperNodes();
        Optional<String> hyperNode = tree.lowestTierHyperNodeOf(node.name());
        return hyperNode.isEmpty() ? allocated : tree.lowestCommonAncestor(hyperNode, allocated);
    }

    /** Volcano's {@code NeedContinueAllocating} for a subgroup: never when every task is needed. */
    private static boolean needContinueAllocating(SubJobState subJob, Set<String> failedRoles) {
        JobState job = subJob.job();
        if (job.minMember() == job.tasks().size() || subJob.minAvailable() >= subJob.tasks().size()) {
            return false;
        }
        return job.hasSubGroupPolicy() || GangRules.needContinueAllocating(job, failedRoles);
    }

    private static Set<String> failedRoles(JobState job, SubJobState subJob) {
        Set<String> roles = new HashSet<>();
        for (TaskState task : subJob.tasks()) {
            if (job.fitErrors().containsKey(task.id())) {
                roles.add(task.task().role());
            }
        }
        return roles;
    }

    private static void forgetFitErrors(JobState job, SubJobState subJob) {
        Set<TaskId> ids = new HashSet<>();
        subJob.tasks().forEach(task -> ids.add(task.id()));
        job.clearFitErrors(ids::contains);
    }
}
