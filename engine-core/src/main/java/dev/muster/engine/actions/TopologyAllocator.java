package dev.muster.engine.actions;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.Statement;
import dev.muster.engine.framework.SubJobState;
import dev.muster.engine.model.Queue;
import dev.muster.engine.topology.HyperNodeTree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places a job with a hard topology or subgroup policies hypernode by hypernode, as Volcano's
 * {@code allocateForJob}: for each gradient of candidate hypernodes, lowest tier first, it dry-runs the
 * job in every candidate (its subgroups in worksheet order, each subgroup itself dry-run over its own
 * gradients within that hypernode), keeps the candidates where the job is ready or pipelined, and
 * applies again the one whose subgroups scored highest. The first gradient with any such candidate
 * decides. The caller commits the statement only when the job is ready, then calls {@link #committed},
 * which records the hypernodes the job and its subgroups now run in. Not thread-safe.
 */
final class TopologyAllocator {
    private static final Logger log = LoggerFactory.getLogger(TopologyAllocator.class);

    private final Session session;
    private final SubJobPlacer placer;
    private final Map<JobState, Decision> decisions = new HashMap<>();

    /** Where a job's best dry run placed it, and its subgroups. */
    private record Decision(String hyperNode, Map<SubJobState, Optional<String>> subJobs) {}

    /** One successful dry run of the whole job in a hypernode. */
    private record Candidate(Statement.Saved operations, JobWorksheet left, double score, Map<SubJobState, Optional<String>> subJobs) {}

    TopologyAllocator(Session session, NodePicker picker) {
        this.session = requireNonNull(session, "session is null");
        this.placer = new SubJobPlacer(session, picker);
    }

    Optional<Statement> allocate(Queue queue, JobState job, JobWorksheet worksheet) {
        if (worksheet.isEmpty()) {
            return Optional.empty();
        }
        Map<SubJobState, Optional<String>> before = new HashMap<>();
        job.subJobs().forEach(subJob -> before.put(subJob, subJob.allocatedHyperNode()));
        for (List<String> gradient : session.plugins().hyperNodeGradients(job, HyperNodeTree.CLUSTER_TOP)) {
            Map<String, Candidate> candidates = new LinkedHashMap<>();
            for (String hyperNode : gradient) {
                job.clearFitErrors(task -> true);
                JobWorksheet copy = worksheet.copy();
                List<Statement> statements = new ArrayList<>();
                double score = 0;
                Map<SubJobState, Optional<String>> placed = new HashMap<>();
                while (!copy.isEmpty()) {
                    SubJobState subJob = copy.pollSubJob();
                    Optional<SubJobPlacer.Placement> placement = placer.place(queue, subJob, copy.tasks(subJob), hyperNode);
                    if (placement.isEmpty() || placement.get().statement().isEmpty()) {
                        continue;
                    }
                    statements.add(placement.get().statement());
                    score += placement.get().score();
                    placed.put(subJob, subJob.allocatedHyperNode());
                    if (!copy.tasks(subJob).isEmpty()) {
                        copy.pushSubJob(subJob);
                    }
                    if (session.plugins().isJobReady(job)) {
                        break;
                    }
                }
                before.forEach(SubJobState::setAllocatedHyperNode);
                Statement.Saved operations = Statement.save(statements);
                if (!operations.isEmpty() && (session.plugins().isJobReady(job) || session.plugins().isJobPipelined(job))) {
                    candidates.put(hyperNode, new Candidate(operations, copy, score, placed));
                }
                job.recordAttempt(statements.stream().mapToInt(Statement::placedCount).sum());
                statements.forEach(Statement::discard);
            }
            if (candidates.isEmpty()) {
                continue;
            }
            String best = bestByScore(candidates);
            Candidate chosen = candidates.get(best);
            Statement statement = session.newStatement();
            statement.replay(chosen.operations());
            worksheet.takeOver(chosen.left());
            decisions.put(job, new Decision(best, chosen.subJobs()));
            log.debug("job={} placed in hypernode {}", job.id(), best);
            return Optional.of(statement);
        }
        log.debug("job={} fits no hypernode", job.id());
        return Optional.empty();
    }

    /** The highest score; ties go to the earliest candidate (gradients are sorted by name). */
    private static String bestByScore(Map<String, Candidate> candidates) {
        String best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (Map.Entry<String, Candidate> entry : candidates.entrySet()) {
            if (entry.getValue().score() > bestScore) {
                best = entry.getKey();
                bestScore = entry.getValue().score();
            }
        }
        return best;
    }

    /** After the job's statement was committed: the job and its subgroups now run where it was placed. */
    void committed(JobState job) {
        Decision decision = decisions.remove(job);
        if (decision == null) {
            return;
        }
        HyperNodeTree tree = session.hyperNodes();
        job.setAllocatedHyperNode(tree.lowestCommonAncestor(job.allocatedHyperNode(), Optional.of(decision.hyperNode())));
        decision.subJobs().forEach((subJob, hyperNode) ->
                subJob.setAllocatedHyperNode(tree.lowestCommonAncestor(subJob.allocatedHyperNode(), hyperNode)));
    }
}
