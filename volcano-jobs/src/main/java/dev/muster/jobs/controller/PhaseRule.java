package dev.muster.jobs.controller;

import dev.muster.jobs.JobPhase;
import dev.muster.jobs.JobStatus;
import dev.muster.jobs.PodCounts;
import dev.muster.jobs.PodPhase;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJobSpec;
import java.util.Optional;

/**
 * How a job's phase moves once its pods are counted (the status update functions of Volcano's
 * states). Each rule reads the spec and the freshly counted status and names the next phase, or
 * none to stay.
 */
public enum PhaseRule {
    /** Pending: Running once minAvailable pods run or finished. */
    PENDING_SYNC {
        @Override
        public Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status) {
            PodCounts counts = status.counts();
            if (spec.minAvailable() <= counts.running() + counts.succeeded() + counts.failed()) {
                return Optional.of(PhaseChange.to(JobPhase.RUNNING));
            }
            return Optional.empty();
        }
    },
    /** Running: Completed or Failed once every pod finished (or minSuccess pods succeeded); Pending when too many pods wait. */
    RUNNING_SYNC {
        @Override
        public Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status) {
            int replicas = spec.totalReplicas();
            if (replicas == 0) {
                return Optional.empty();
            }
            PodCounts counts = status.counts();
            if (spec.minSuccess().isPresent() && counts.succeeded() >= spec.minSuccess().getAsInt()) {
                return Optional.of(PhaseChange.to(JobPhase.COMPLETED, "MinSuccess",
                        counts.succeeded() + " pods succeeded, minSuccess is " + spec.minSuccess().getAsInt()));
            }
            if (counts.succeeded() + counts.failed() == replicas) {
                return Optional.of(finished(spec, status));
            }
            if (counts.pending() > replicas - spec.minAvailable()) {
                return Optional.of(PhaseChange.to(JobPhase.PENDING));
            }
            return Optional.empty();
        }
    },
    /** Restarting: Failed at maxRetry; back to Pending once enough pods are gone to start over. */
    RESTARTING {
        @Override
        public Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status) {
            if (status.retryCount() >= spec.maxRetry()) {
                return Optional.of(PhaseChange.to(JobPhase.FAILED, "MaxRetryExceeded",
                        "restarted " + status.retryCount() + " times, maxRetry is " + spec.maxRetry()));
            }
            if (spec.totalReplicas() - status.counts().terminating() >= status.minAvailable()) {
                return Optional.of(PhaseChange.to(JobPhase.PENDING));
            }
            return Optional.empty();
        }
    },
    TO_RESTARTING {
        @Override
        public Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status) {
            return Optional.of(new PhaseChange(JobPhase.RESTARTING, true, "", ""));
        }
    },
    TO_ABORTING {
        @Override
        public Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status) {
            return Optional.of(PhaseChange.to(JobPhase.ABORTING));
        }
    },
    TO_TERMINATING {
        @Override
        public Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status) {
            return Optional.of(PhaseChange.to(JobPhase.TERMINATING));
        }
    },
    TO_COMPLETING {
        @Override
        public Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status) {
            return Optional.of(PhaseChange.to(JobPhase.COMPLETING));
        }
    },
    ABORTED_WHEN_EMPTY {
        @Override
        public Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status) {
            return status.counts().hasLivePods() ? Optional.empty() : Optional.of(PhaseChange.to(JobPhase.ABORTED));
        }
    },
    COMPLETED_WHEN_EMPTY {
        @Override
        public Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status) {
            return status.counts().hasLivePods() ? Optional.empty() : Optional.of(PhaseChange.to(JobPhase.COMPLETED));
        }
    },
    TERMINATED_WHEN_EMPTY {
        @Override
        public Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status) {
            return status.counts().hasLivePods() ? Optional.empty() : Optional.of(PhaseChange.to(JobPhase.TERMINATED));
        }
    },
    STAY {
        @Override
        public Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status) {
            return Optional.empty();
        }
    };

    /** The next phase, or empty to stay. */
    public abstract Optional<PhaseChange> apply(VolcanoJobSpec spec, JobStatus status);

    /** Every pod finished: Failed if a task missed its own minimum or minSuccess was missed, Completed if minAvailable succeeded. */
    private static PhaseChange finished(VolcanoJobSpec spec, JobStatus status) {
        int succeeded = status.counts().succeeded();
        if (spec.minAvailable() >= spec.totalTaskMinAvailable()) {
            for (TaskSpec task : spec.tasks()) {
                if (status.taskStatusCount().containsKey(task.name())
                        && status.taskCount(task.name(), PodPhase.SUCCEEDED) < task.minMember()) {
                    return PhaseChange.to(JobPhase.FAILED, "TaskMinAvailable", "task " + task.name() + ": "
                            + status.taskCount(task.name(), PodPhase.SUCCEEDED) + " pods succeeded, minAvailable is " + task.minMember());
                }
            }
        }
        if (spec.minSuccess().isPresent() && succeeded < spec.minSuccess().getAsInt()) {
            return PhaseChange.to(JobPhase.FAILED, "MinSuccess", succeeded + " pods succeeded, minSuccess is " + spec.minSuccess().getAsInt());
        }
        if (succeeded >= spec.minAvailable()) {
            return PhaseChange.to(JobPhase.COMPLETED);
        }
        return PhaseChange.to(JobPhase.FAILED, "MinAvailable", succeeded + " pods succeeded, minAvailable is " + spec.minAvailable());
    }
}
