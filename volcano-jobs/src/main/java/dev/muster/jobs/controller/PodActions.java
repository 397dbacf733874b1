package dev.muster.jobs.controller;

import com.google.common.collect.ImmutableSortedMap;
import dev.muster.jobs.JobAction;
import dev.muster.jobs.JobStatus;
import dev.muster.jobs.PodPhase;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.jobplugins.JobPlugin;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one reconcile does to a job's pods, and the recount that follows (Volcano's {@code syncJob},
 * {@code killJob} and {@code killTarget}). Unlike Volcano, pods kept by a kill are still counted in
 * their phase, so a finished job's status keeps its succeeded and failed counts. Not thread-safe.
 */
final class PodActions {
    private final VolcanoJob job;
    private final ObservedJob observed;
    private final List<JobPlugin> plugins;
    private final JobPlan.Builder plan;
    private final PriorityClassLookup priorities;

    PodActions(VolcanoJob job, ObservedJob observed, List<JobPlugin> plugins, JobPlan.Builder plan, PriorityClassLookup priorities) {
        this.job = job;
        this.observed = observed;
        this.plugins = plugins;
        this.plan = plan;
        this.priorities = priorities;
    }

    /**
     * Plugin objects and the PodGroup; surplus and out-of-sync pods deleted; missing pods made once the
     * PodGroup is admitted (Inqueue or later) and their task's dependencies are met. The pods are
     * recounted even before admission (Volcano keeps the last counts until then), so a restarted job
     * whose pods are gone returns to Pending without waiting for the scheduler.
     */
    JobStatus sync() {
        JobStatus status = job.status().withMinAvailable(job.spec().minAvailable());
        for (JobPlugin plugin : plugins) {
            String key = "plugin-" + plugin.name();
            // objects made once are made again when a resync found one of the plugin's objects gone
            if (!status.controlledResources().containsKey(key)
                    || plugin.objectsOnJobDelete(job).stream().anyMatch(observed.missingObjects()::contains)) {
                plugin.objectsOnJobAdd(job).forEach(plan::createObject);
                status = status.withControlledResource(key, plugin.name());
            }
            plugin.objectsOnSync(job).forEach(plan::applyObject);
        }
        plan.podGroup(PodGroupFactory.create(job, priorities));
        boolean admitted = observed.podGroupAdmitted();
        VolcanoJob current = job.withStatus(status);
        ImmutableSortedMap<String, String> waiting = TaskDependencies.waiting(job, observed);
        if (admitted) {
            waiting.forEach(plan::waiting);
        }
        PodCensus census = new PodCensus();
        for (TaskSpec task : job.spec().tasks()) {
            Map<String, ObservedPod> pods = new LinkedHashMap<>();
            observed.podsOf(task.name()).forEach(pod -> pods.put(pod.name(), pod));
            for (int index = 0; index < task.replicas(); index++) {
                ObservedPod pod = pods.remove(PodFactory.podName(job, task.name(), index));
                if (pod == null) {
                    if (admitted && !waiting.containsKey(task.name())) {
                        plan.createPod(PodFactory.create(current, task, index, plugins));
                        census.count(task.name(), PodPhase.PENDING);
                    }
                } else if (pod.deleting()) {
                    census.terminating();
                } else {
                    if (pod.outOfSync()) {
                        delete(pod, census);
                    }
                    census.count(task.name(), pod.phase());
                }
            }
            pods.values().stream().filter(pod -> !pod.deleting()).forEach(pod -> delete(pod, census));
        }
        return census.applyTo(status);
    }

    /**
     * Kills the whole job: every pod, or every unfinished pod when {@code keepFinished} (always on the
     * last retry); bumps the job version when pods die (so their late events read as outdated), deletes
     * the PodGroup and the plugins' objects.
     */
    JobStatus killJob(boolean keepFinished) {
        JobStatus status = job.status();
        boolean lastRetry = status.retryCount() >= job.spec().maxRetry() - 1;
        PodCensus census = new PodCensus();
        boolean killed = false;
        for (ObservedPod pod : observed.pods()) {
            if (pod.deleting()) {
                census.terminating();
            } else if ((keepFinished || lastRetry) && (pod.phase() == PodPhase.SUCCEEDED || pod.phase() == PodPhase.FAILED)) {
                census.count(pod.task(), pod.phase());
            } else {
                delete(pod, census);
                killed = true;
            }
        }
        // Volcano bumps the version on every kill; bumping only when pods die keeps a finished job's status still
        if (killed) {
            status = status.withVersion(status.version() + 1);
        }
        for (JobPlugin plugin : plugins) {
            String key = "plugin-" + plugin.name();
            if (status.controlledResources().containsKey(key)) {
                plugin.objectsOnJobDelete(job).forEach(plan::deleteObject);
                status = status.withoutControlledResource(key);
            }
        }
        plan.deletePodGroup();
        return census.applyTo(status);
    }

    /** Kills the request's task ({@code RestartTask}) or pod ({@code RestartPod}); the other pods are counted as they are. */
    JobStatus killTarget(JobAction action, JobRequest request) {
        PodCensus census = new PodCensus();
        for (ObservedPod pod : observed.pods()) {
            boolean target = action == JobAction.RESTART_POD
                    ? request.pod().filter(pod.name()::equals).isPresent()
                    : request.task().filter(pod.task()::equals).isPresent();
            if (pod.deleting()) {
                census.terminating();
            } else if (target) {
                delete(pod, census);
            } else {
                census.count(pod.task(), pod.phase());
            }
        }
        return census.applyTo(job.status());
    }

    private void delete(ObservedPod pod, PodCensus census) {
        plan.deletePod(pod.name());
        census.terminating();
    }
}
