package dev.muster.jobs.controller;

import static java.util.Objects.requireNonNull;

import dev.muster.jobs.JobAction;
import dev.muster.jobs.JobPhase;

/**
 * Volcano's job phase machine ({@code pkg/controllers/job/state}): for a phase and an action, what to
 * do with the pods ({@link Operation}) and which {@link PhaseRule} then decides the next phase.
 */
public final class JobStateMachine {
    /** What happens to the pods. */
    public enum Operation {
        /** Create missing pods, delete surplus and out-of-sync ones, recount. */
        SYNC,
        /** Kill every pod, keeping none (restarts; a job on its last retry keeps finished pods). */
        KILL_ALL,
        /** Kill every pod that has not finished: Succeeded and Failed pods stay. */
        KILL_UNFINISHED,
        /** Kill the request's task or pod only. */
        KILL_TARGET
    }

    /** One step of the machine. */
    public record Step(Operation operation, PhaseRule rule) {
        public Step {
            requireNonNull(operation, "operation is null");
            requireNonNull(rule, "rule is null");
        }
    }

    private JobStateMachine() {}

    public static Step step(JobPhase phase, JobAction action) {
        return switch (phase) {
            case PENDING -> active(action, PhaseRule.PENDING_SYNC);
            case RUNNING -> active(action, PhaseRule.RUNNING_SYNC);
            case RESTARTING -> switch (action) {
                case SYNC_JOB -> new Step(Operation.SYNC, PhaseRule.RESTARTING);
                case RESTART_TASK, RESTART_POD -> new Step(Operation.KILL_TARGET, PhaseRule.RESTARTING);
                case ABORT_JOB, RESTART_JOB, TERMINATE_JOB, COMPLETE_JOB, RESUME_JOB -> new Step(Operation.KILL_ALL, PhaseRule.RESTARTING);
            };
            case ABORTING -> action == JobAction.RESUME_JOB
                    ? new Step(Operation.KILL_UNFINISHED, PhaseRule.TO_RESTARTING)
                    : new Step(Operation.KILL_UNFINISHED, PhaseRule.ABORTED_WHEN_EMPTY);
            case ABORTED -> action == JobAction.RESUME_JOB
                    ? new Step(Operation.KILL_UNFINISHED, PhaseRule.TO_RESTARTING)
                    : new Step(Operation.KILL_UNFINISHED, PhaseRule.STAY);
            case COMPLETING -> new Step(Operation.KILL_UNFINISHED, PhaseRule.COMPLETED_WHEN_EMPTY);
            case TERMINATING -> new Step(Operation.KILL_UNFINISHED, PhaseRule.TERMINATED_WHEN_EMPTY);
            case COMPLETED, TERMINATED, FAILED -> new Step(Operation.KILL_UNFINISHED, PhaseRule.STAY);
        };
    }

    /** Pending and Running take every action; they differ only in how a sync moves them on. */
    private static Step active(JobAction action, PhaseRule syncRule) {
        return switch (action) {
            case RESTART_JOB -> new Step(Operation.KILL_ALL, PhaseRule.TO_RESTARTING);
            case RESTART_TASK, RESTART_POD -> new Step(Operation.KILL_TARGET, PhaseRule.TO_RESTARTING);
            case ABORT_JOB -> new Step(Operation.KILL_UNFINISHED, PhaseRule.TO_ABORTING);
            case TERMINATE_JOB -> new Step(Operation.KILL_UNFINISHED, PhaseRule.TO_TERMINATING);
            case COMPLETE_JOB -> new Step(Operation.KILL_UNFINISHED, PhaseRule.TO_COMPLETING);
            case SYNC_JOB, RESUME_JOB -> new Step(Operation.SYNC, syncRule);
        };
    }
}
