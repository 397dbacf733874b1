package dev.muster.jobs.controller;

import dev.muster.jobs.JobEvent;
import dev.muster.jobs.LifecyclePolicy;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import java.util.List;
import java.util.Optional;

/**
 * Which action a request asks for (Volcano's {@code applyPolicies}): a command's own action; a sync
 * for internal events and for events from pods of an older job version; otherwise the first matching
 * policy of the request's task, then of the job. A policy matches by event (or {@code *}) or by
 * exit code; {@code PodPending} matches only policies with a timeout. No match means sync.
 */
public final class PolicyMatcher {
    private PolicyMatcher() {}

    public static PolicyDecision decide(VolcanoJob job, JobRequest request) {
        if (request.command().isPresent()) {
            return new PolicyDecision(request.command().get(), Optional.empty());
        }
        JobEvent event = request.event();
        if (event == JobEvent.OUT_OF_SYNC || event == JobEvent.COMMAND_ISSUED || event == JobEvent.POD_RUNNING) {
            return PolicyDecision.SYNC;
        }
        if (request.jobVersion().isPresent() && request.jobVersion().getAsInt() < job.status().version()) {
            return PolicyDecision.SYNC;
        }
        if (request.task().isPresent()) {
            Optional<TaskSpec> task = job.spec().task(request.task().get());
            if (task.isPresent()) {
                Optional<PolicyDecision> decision = firstMatch(task.get().policies(), request);
                if (decision.isPresent()) {
                    return decision.get();
                }
            }
        }
        return firstMatch(job.spec().policies(), request).orElse(PolicyDecision.SYNC);
    }

    private static Optional<PolicyDecision> firstMatch(List<LifecyclePolicy> policies, JobRequest request) {
        for (LifecyclePolicy policy : policies) {
            boolean byEvent = policy.matchesEvent(request.event()) && (!request.event().needsTimeout() || policy.timeout().isPresent());
            boolean byExitCode = policy.exitCode().isPresent() && request.exitCode().isPresent()
                    && policy.exitCode().getAsInt() == request.exitCode().getAsInt();
            if (byEvent || byExitCode) {
                return Optional.of(new PolicyDecision(policy.action(), policy.timeout()));
            }
        }
        return Optional.empty();
    }
}
