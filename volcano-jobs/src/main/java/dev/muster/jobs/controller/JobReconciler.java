package dev.muster.jobs.controller;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.api.GoDuration;
import dev.muster.jobs.JobAction;
import dev.muster.jobs.JobPhase;
import dev.muster.jobs.JobReadResult;
import dev.muster.jobs.JobStatus;
import dev.muster.jobs.JobValidator;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.controller.JobStateMachine.Step;
import dev.muster.jobs.jobplugins.JobPlugin;
import dev.muster.jobs.jobplugins.JobPlugins;
import dev.muster.jobs.jobplugins.SshKeyGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The Volcano Job controller as a function: one job, what was observed of it, one request and the
 * time give the {@link JobPlan} the runtime applies. Idempotent: reconciling the same input again
 * gives the same plan. Stateless and thread-safe; the runtime serialises requests per job, as
 * Volcano's per-job work queues do.
 */
public final class JobReconciler {
    private final SshKeyGenerator keys;
    private final PriorityClassLookup priorities;

    public JobReconciler(SshKeyGenerator keys, PriorityClassLookup priorities) {
        this.keys = requireNonNull(keys, "keys is null");
        this.priorities = requireNonNull(priorities, "priorities is null");
    }

    /**
     * Reconciles a job as read from the API server: a job the reader found problems in (unknown
     * fields, events or actions) fails with those problems, as an invalid spec does.
     */
    public JobPlan reconcile(JobReadResult<VolcanoJob> read, ObservedJob observed, JobRequest request, Instant now) {
        requireNonNull(read, "read is null");
        VolcanoJob job = read.object().orElseThrow(() -> new IllegalArgumentException(String.join("; ", read.problems())));
        if (!read.problems().isEmpty()) {
            return invalid(job, read.problems(), now, JobPlan.builder());
        }
        return reconcile(job, observed, request, now);
    }

    /** A periodic or informer-triggered sync. */
    public JobPlan reconcile(VolcanoJob job, ObservedJob observed, Instant now) {
        return reconcile(job, observed, JobRequest.sync(), now);
    }

    public JobPlan reconcile(VolcanoJob job, ObservedJob observed, JobRequest request, Instant now) {
        requireNonNull(job, "job is null");
        requireNonNull(observed, "observed is null");
        requireNonNull(request, "request is null");
        requireNonNull(now, "now is null");
        JobPlan.Builder plan = JobPlan.builder();
        JobReadResult<ImmutableList<JobPlugin>> plugins = JobPlugins.create(job.spec(), keys);
        List<String> problems = ImmutableList.<String>builder().addAll(JobValidator.validate(job.spec())).addAll(plugins.problems()).build();
        if (!problems.isEmpty()) {
            return invalid(job, problems, now, plan);
        }
        JobStatus status = job.status();
        Optional<Duration> ttlLeft = ttlLeft(job, status, now);
        if (ttlLeft.isPresent() && ttlLeft.get().isZero()) {
            return plan.deleteJob().event(PlanEvent.normal("TTLExpired", "job finished more than "
                    + job.spec().ttlSecondsAfterFinished().getAsInt() + "s ago; deleting it")).build();
        }
        if (status.phase().isEmpty()) {
            status = status.withMinAvailable(job.spec().minAvailable()).transition(JobPhase.PENDING, "", "", now);
        }
        VolcanoJob current = job.withStatus(status);
        PolicyDecision decision = PolicyMatcher.decide(current, request);
        JobStatus next;
        if (decision.delay().isPresent()) {
            Duration delay = decision.delay().get();
            plan.delay(new DelayedRequest(request.asCommand(decision.action()), now.plus(delay)));
            plan.event(PlanEvent.normal("ExecuteAction", "Execute action " + decision.action() + " after " + GoDuration.format(delay)));
            next = status;
        } else {
            if (decision.action() != JobAction.SYNC_JOB) {
                plan.event(PlanEvent.normal("ExecuteAction", "Start to execute action " + decision.action()));
            }
            Step step = JobStateMachine.step(status.currentPhase(), decision.action());
            PodActions pods = new PodActions(current, observed, plugins.orElseThrow(), plan, priorities);
            next = switch (step.operation()) {
                case SYNC -> pods.sync();
                case KILL_ALL -> pods.killJob(false);
                case KILL_UNFINISHED -> pods.killJob(true);
                case KILL_TARGET -> pods.killTarget(decision.action(), request);
            };
            next = applyRule(current, next, step, now, plan);
            if (step.operation() == JobStateMachine.Operation.KILL_ALL || step.operation() == JobStateMachine.Operation.KILL_UNFINISHED) {
                next = next.withRunningDuration(Duration.between(job.metadata().creationTimestamp(), next.lastTransitionTime().orElse(now)));
            }
        }
        if (ttlLeft.isEmpty()) {
            ttlLeft(job, next, now).ifPresent(plan::requeueAfter);
        } else {
            plan.requeueAfter(ttlLeft.get());
        }
        if (!next.equals(job.status())) {
            plan.status(next);
        }
        return plan.build();
    }

    /** Every object the job's plugins own (what they delete with the job); empty when the plugins cannot be read. */
    public ImmutableList<ObjectRef> pluginObjects(VolcanoJob job) {
        return JobPlugins.create(job.spec(), keys).object().orElse(ImmutableList.of()).stream()
                .flatMap(plugin -> plugin.objectsOnJobDelete(job).stream())
                .collect(ImmutableList.toImmutableList());
    }

    private static JobStatus applyRule(VolcanoJob job, JobStatus counted, Step step, Instant now, JobPlan.Builder plan) {
        Optional<PhaseChange> change = step.rule().apply(job.spec(), counted);
        if (change.isEmpty()) {
            return counted;
        }
        PhaseChange phaseChange = change.get();
        JobStatus status = phaseChange.retry() ? counted.withRetryCount(counted.retryCount() + 1) : counted;
        if (phaseChange.phase() == JobPhase.FAILED && !phaseChange.message().isEmpty()) {
            plan.event(PlanEvent.warning(phaseChange.reason(), phaseChange.message()));
        }
        return status.transition(phaseChange.phase(), phaseChange.reason(), phaseChange.message(), now);
    }

    /** Time left before a finished job's TTL deletes it (zero once expired); empty when no TTL applies. */
    private static Optional<Duration> ttlLeft(VolcanoJob job, JobStatus status, Instant now) {
        if (job.spec().ttlSecondsAfterFinished().isEmpty() || status.phase().isEmpty() || !status.currentPhase().isFinished()
                || status.lastTransitionTime().isEmpty()) {
            return Optional.empty();
        }
        Instant expiry = status.lastTransitionTime().get().plusSeconds(job.spec().ttlSecondsAfterFinished().getAsInt());
        return Optional.of(now.isBefore(expiry) ? Duration.between(now, expiry) : Duration.ZERO);
    }

    /**
     * A job Volcano's webhook would have refused: it fails with reason {@code InvalidSpec} and a message
     * listing every problem, and gets one Warning event; no pods, no PodGroup.
     */
    private static JobPlan invalid(VolcanoJob job, List<String> problems, Instant now, JobPlan.Builder plan) {
        String message = String.join("; ", problems);
        JobStatus status = job.status();
        if (status.currentPhase() == JobPhase.FAILED && status.reason().equals("InvalidSpec") && status.message().equals(message)) {
            return plan.build();
        }
        plan.event(PlanEvent.warning("InvalidSpec", message));
        return plan.status(status.withMinAvailable(job.spec().minAvailable()).transition(JobPhase.FAILED, "InvalidSpec", message, now)).build();
    }
}
