package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.TaskId;
import java.util.Optional;

/**
 * The decisions of one session.
 *
 * @param binds tasks to bind, with their nodes
 * @param evictions tasks to evict, in decision order, with the action that chose them and the reason
 * @param pipelined tasks that hold a reservation on a node's releasing resources
 * @param jobs each job's phase after the session and, when it is not ready, why
 */
public record SessionResult(
        ImmutableSortedMap<TaskId, NodeName> binds,
        ImmutableList<Eviction> evictions,
        ImmutableSortedMap<TaskId, NodeName> pipelined,
        ImmutableSortedMap<JobId, JobOutcome> jobs) {

    /**
     * One pod to evict.
     *
     * @param job the job the task belongs to in the session
     * @param queue the job's queue
     * @param action the name of the action that evicts it, as configured ({@code preempt}, {@code reclaim})
     */
    public record Eviction(TaskId task, JobId job, QueueName queue, String action, String reason) {
        public Eviction {
            requireNonNull(task, "task is null");
            requireNonNull(job, "job is null");
            requireNonNull(queue, "queue is null");
            requireNonNull(action, "action is null");
            requireNonNull(reason, "reason is null");
        }
    }

    /**
     * @param reason why the job is not running yet, or empty when it is ready
     * @param warnings hints of the job that plugins ignored, each for a Warning Event on the PodGroup
     * @param reservation what is held for the job beyond its placed pods (room for executors to come), in words
     */
    public record JobOutcome(PodGroupPhase phase, boolean ready, Optional<String> reason, ImmutableList<String> warnings,
            Optional<String> reservation) {
        public JobOutcome {
            warnings = ImmutableList.copyOf(warnings);
            requireNonNull(reservation, "reservation is null");
        }

        public JobOutcome(PodGroupPhase phase, boolean ready, Optional<String> reason, ImmutableList<String> warnings) {
            this(phase, ready, reason, warnings, Optional.empty());
        }

        public JobOutcome(PodGroupPhase phase, boolean ready, Optional<String> reason) {
            this(phase, ready, reason, ImmutableList.of());
        }

        /** The record's text, with warnings and a reservation only when there are some, so decisions print as they did before. */
        @Override
        public String toString() {
            return "JobOutcome[phase=" + phase + ", ready=" + ready + ", reason=" + reason
                    + (warnings.isEmpty() ? "" : ", warnings=" + warnings)
                    + reservation.map(text -> ", reservation=" + text).orElse("") + "]";
        }
    }
}
