package dev.muster.jobs.controller;

import dev.muster.engine.api.SchedulingApi;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.jobplugins.JobPlugin;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Makes pod {@code index} of a task as Volcano's {@code createJobPod} does: named
 * {@code <job>-<task>-<index>}, owned by the job, the template's spec with the job's scheduler and
 * priority class as defaults, Volcano's labels and annotations, then each plugin's additions.
 */
public final class PodFactory {
    private PodFactory() {}

    public static String podName(VolcanoJob job, String task, int index) {
        return job.name() + "-" + task + "-" + index;
    }

    public static Pod create(VolcanoJob job, TaskSpec task, int index, List<JobPlugin> plugins) {
        PodTemplateSpec template = task.template();
        PodSpec spec = template.getSpec() == null ? new PodSpec() : template.getSpec();
        if (spec.getSchedulerName() == null || spec.getSchedulerName().isEmpty()) {
            spec.setSchedulerName(job.spec().schedulerName());
        }
        if ((spec.getPriorityClassName() == null || spec.getPriorityClassName().isEmpty()) && !job.spec().priorityClassName().isEmpty()) {
            spec.setPriorityClassName(job.spec().priorityClassName());
        }
        ObjectMeta templateMetadata = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        Map<String, String> annotations = new TreeMap<>(templateMetadata.getAnnotations() == null ? Map.of() : templateMetadata.getAnnotations());
        Map<String, String> labels = new TreeMap<>(templateMetadata.getLabels() == null ? Map.of() : templateMetadata.getLabels());
        String indexText = Integer.toString(index);
        annotations.put(SchedulingApi.TASK_INDEX, indexText);
        annotations.put(SchedulingApi.TASK_SPEC, task.name());
        annotations.put(SchedulingApi.GROUP_NAME_ANNOTATION, PodGroupFactory.podGroupName(job));
        annotations.put(SchedulingApi.JOB_NAME, job.name());
        annotations.put(SchedulingApi.QUEUE_NAME_LABEL, job.spec().queue());
        annotations.put(SchedulingApi.JOB_VERSION, Integer.toString(job.status().version()));
        annotations.put(SchedulingApi.TEMPLATE_UID, job.name() + "-" + task.name());
        annotations.put(SchedulingApi.JOB_RETRY_COUNT, Integer.toString(job.status().retryCount()));
        if (!task.topologyPolicy().isEmpty()) {
            annotations.put(SchedulingApi.NUMA_POLICY, task.topologyPolicy());
        }
        Map<String, String> jobAnnotations = job.metadata().annotations();
        for (String key : List.of(SchedulingApi.PREEMPTABLE, SchedulingApi.COOLDOWN_TIME, SchedulingApi.REVOCABLE_ZONE)) {
            if (jobAnnotations.containsKey(key)) {
                annotations.put(key, jobAnnotations.get(key));
            }
        }
        if (jobAnnotations.containsKey(SchedulingApi.JDB_MIN_AVAILABLE)) {
            annotations.put(SchedulingApi.JDB_MIN_AVAILABLE, jobAnnotations.get(SchedulingApi.JDB_MIN_AVAILABLE));
        } else if (jobAnnotations.containsKey(SchedulingApi.JDB_MAX_UNAVAILABLE)) {
            annotations.put(SchedulingApi.JDB_MAX_UNAVAILABLE, jobAnnotations.get(SchedulingApi.JDB_MAX_UNAVAILABLE));
        }
        labels.put(SchedulingApi.TASK_INDEX, indexText);
        labels.put(SchedulingApi.JOB_NAME, job.name());
        labels.put(SchedulingApi.TASK_SPEC, task.name());
        labels.put(SchedulingApi.JOB_NAMESPACE, job.namespace());
        labels.put(SchedulingApi.QUEUE_NAME_LABEL, job.spec().queue());
        for (String key : List.of(SchedulingApi.PREEMPTABLE, SchedulingApi.COOLDOWN_TIME)) {
            if (job.metadata().labels().containsKey(key)) {
                labels.put(key, job.metadata().labels().get(key));
            }
        }
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace(job.namespace())
                .withName(podName(job, task.name(), index))
                .withOwnerReferences(Owners.controllerOf(job))
                .withLabels(labels)
                .withAnnotations(annotations)
                .endMetadata()
                .withSpec(spec)
                .build();
        for (JobPlugin plugin : plugins) {
            plugin.onPodCreate(pod, job, task, index);
        }
        return pod;
    }
}
