package dev.muster.jobs.controller;

import static java.util.Objects.requireNonNull;

import dev.muster.jobs.JobAction;
import dev.muster.jobs.JobEvent;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Why the controller looks at a job now: an event (about a pod or a task, with the job version the
 * pod was made in), or a command naming an action directly (a {@code bus.volcano.sh} Command, a
 * delayed policy action falling due). {@link #sync()} is the periodic or informer-triggered resync.
 */
public record JobRequest(
        JobEvent event,
        Optional<JobAction> command,
        Optional<String> task,
        Optional<String> pod,
        OptionalInt exitCode,
        OptionalInt jobVersion) {
    public JobRequest {
        requireNonNull(event, "event is null");
        requireNonNull(command, "command is null");
        requireNonNull(task, "task is null");
        requireNonNull(pod, "pod is null");
        requireNonNull(exitCode, "exitCode is null");
        requireNonNull(jobVersion, "jobVersion is null");
    }

    public static JobRequest sync() {
        return new JobRequest(JobEvent.OUT_OF_SYNC, Optional.empty(), Optional.empty(), Optional.empty(), OptionalInt.empty(), OptionalInt.empty());
    }

    /** An event about a whole job ({@code Unknown}, {@code JobUpdated}). */
    public static JobRequest jobEvent(JobEvent event) {
        return new JobRequest(event, Optional.empty(), Optional.empty(), Optional.empty(), OptionalInt.empty(), OptionalInt.empty());
    }

    /** An event about a pod of {@code task}, made in job version {@code jobVersion}. */
    public static JobRequest podEvent(JobEvent event, String task, String pod, int jobVersion) {
        return new JobRequest(event, Optional.empty(), Optional.of(task), Optional.of(pod), OptionalInt.empty(), OptionalInt.of(jobVersion));
    }

    public static JobRequest podFailed(String task, String pod, OptionalInt exitCode, int jobVersion) {
        return new JobRequest(JobEvent.POD_FAILED, Optional.empty(), Optional.of(task), Optional.of(pod), exitCode, OptionalInt.of(jobVersion));
    }

    /** A command to run {@code action} now ({@code vcctl job suspend} is {@code AbortJob}, resume is {@code ResumeJob}). */
    public static JobRequest command(JobAction action) {
        return new JobRequest(JobEvent.COMMAND_ISSUED, Optional.of(action), Optional.empty(), Optional.empty(), OptionalInt.empty(), OptionalInt.empty());
    }

    /** The same request as a command for {@code action}, keeping its target: how a delayed policy action comes back. */
    public JobRequest asCommand(JobAction action) {
        return new JobRequest(event, Optional.of(action), task, pod, exitCode, jobVersion);
    }
}
