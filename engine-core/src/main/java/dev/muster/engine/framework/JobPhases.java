package dev.muster.engine.framework;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.TaskStatus;
import java.util.Optional;

/** A job's PodGroup phase and pending reason at session close, with Volcano's rules. */
final class JobPhases {
    private JobPhases() {}

    static SessionResult.JobOutcome outcome(Session session, JobState job) {
        Optional<String> invalid = session.jobInvalidReason(job);
        boolean ready = invalid.isEmpty() && job.isReady() && session.plugins().isJobReady(job);
        Optional<String> reason = Optional.empty();
        if (!ready) {
            reason = invalid.or(job::admissionNote).or(job::unschedulableReason).or(() -> describeFitErrors(job));
        }
        return new SessionResult.JobOutcome(phase(job), ready, reason, ImmutableList.copyOf(job.warnings()), job.reservationNote());
    }

    static PodGroupPhase phase(JobState job) {
        if (job.count(TaskStatus.RUNNING) > 0 && job.unschedulableReason().isPresent()) {
            return PodGroupPhase.UNKNOWN;
        }
        int completed = job.count(TaskStatus.SUCCEEDED) + job.count(TaskStatus.FAILED);
        int scheduled = job.count(TaskStatus.RUNNING) + job.count(TaskStatus.BOUND) + completed;
        for (TaskState task : job.tasksWithStatus(TaskStatus.RELEASING)) {
            if (task.node().isPresent()) {
                scheduled++;
            }
        }
        if (scheduled >= job.minMember()) {
            return scheduled == completed ? PodGroupPhase.COMPLETED : PodGroupPhase.RUNNING;
        }
        return job.phase() == PodGroupPhase.INQUEUE ? PodGroupPhase.INQUEUE : PodGroupPhase.PENDING;
    }

    private static Optional<String> describeFitErrors(JobState job) {
        if (job.fitErrors().isEmpty() && job.queueNotes().isEmpty()) {
            return Optional.empty();
        }
        java.util.Map<dev.muster.engine.model.TaskId, String> all = new java.util.TreeMap<>(job.queueNotes());
        all.putAll(job.fitErrors());
        StringBuilder text = new StringBuilder();
        all.forEach((task, error) -> {
            if (text.length() > 0) {
                text.append("; ");
            }
            text.append(task.name()).append(": ").append(error);
        });
        return Optional.of(text.toString());
    }
}
