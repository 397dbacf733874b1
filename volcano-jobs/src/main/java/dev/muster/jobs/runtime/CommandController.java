package dev.muster.jobs.runtime;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSet;
import dev.muster.jobs.JobAction;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.controller.JobRequest;
import dev.muster.jobs.controller.PlanEvent;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.controller.KeyedWorkQueue;
import dev.muster.runtime.controller.ObjectKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Volcano's command bus for Jobs: a {@code bus.volcano.sh/v1alpha1} Command (what {@code vcctl job
 * suspend}, {@code resume} and {@code restart} create) names an {@code action} and, in {@code target},
 * the Job. As in Volcano, the Command is deleted first, so that it runs at most once, a
 * {@code CommandIssued} event goes on the Job, and the action goes to the Job's queue, where the
 * job state machine takes it like a policy's action. Commands aimed at anything but a Volcano Job
 * (Queue commands) are left to their own controller. A Command Muster cannot run (an unknown action,
 * a Job that does not exist) gets a Warning event on itself naming the problem, and is deleted.
 */
final class CommandController {
    static final String API_VERSION = "bus.volcano.sh/v1alpha1";
    static final String KIND = "Command";
    /** The actions a Command may name for a whole Job; RestartTask and RestartPod need a task or pod a Command cannot give. */
    static final ImmutableSet<JobAction> ACTIONS = ImmutableSet.of(JobAction.ABORT_JOB, JobAction.RESUME_JOB, JobAction.RESTART_JOB,
            JobAction.TERMINATE_JOB, JobAction.COMPLETE_JOB);
    private static final Logger log = LoggerFactory.getLogger(CommandController.class);
    private static final int NOT_FOUND = 404;

    private final KubernetesClient client;
    private final VolcanoInformers informers;
    private final EventWriter events;

    CommandController(KubernetesClient client, VolcanoInformers informers, EventWriter events) {
        this.client = requireNonNull(client, "client is null");
        this.informers = requireNonNull(informers, "informers is null");
        this.events = requireNonNull(events, "events is null");
    }

    /** Whether the command is for the Job controller: its target is a {@code batch.volcano.sh} Job (Volcano's filter). */
    static boolean targetsAJob(GenericKubernetesResource command) {
        return VolcanoJob.API_VERSION.equals(command.get("target", "apiVersion")) && VolcanoJob.KIND.equals(command.get("target", "kind"));
    }

    void process(ObjectKey key, KeyedWorkQueue<ObjectKey, JobRequest> jobQueue) {
        GenericKubernetesResource object = informers.commands.getStore().getByKey(key.toString());
        if (object == null || !targetsAJob(object)) {
            return;
        }
        ObjectNode tree = informers.tree(object, API_VERSION, KIND);
        String actionName = tree.path("action").asText("");
        JsonNode target = tree.path("target");
        String jobName = target.path("name").asText("");
        EventRecorder.Subject subject = new EventRecorder.Subject(API_VERSION, KIND, key.namespace(), key.name(),
                tree.path("metadata").path("uid").asText(""));
        Optional<JobAction> action = JobAction.fromWireName(actionName).filter(ACTIONS::contains);
        if (action.isEmpty()) {
            reject(key, subject, "UnknownAction", "Command " + key + ": action '" + actionName + "' is not one of "
                    + ACTIONS.stream().map(JobAction::wireName).collect(Collectors.joining(", ")));
            return;
        }
        Optional<GenericKubernetesResource> job = jobName.isEmpty() ? Optional.empty() : job(key.namespace(), jobName);
        String targetUid = target.path("uid").asText("");
        if (job.isEmpty() || (!targetUid.isEmpty() && !targetUid.equals(job.get().getMetadata().getUid()))) {
            reject(key, subject, "JobNotFound", "Command " + key + ": target.name: no Job " + key.namespace() + "/" + jobName
                    + (targetUid.isEmpty() ? "" : " with uid " + targetUid) + " for action " + actionName);
            return;
        }
        if (!delete(key)) {
            return;
        }
        events.record(new EventRecorder.Subject(VolcanoJob.API_VERSION, VolcanoJob.KIND, key.namespace(), jobName, job.get().getMetadata().getUid()),
                PlanEvent.normal("CommandIssued", "Start to execute command " + actionName
                        + ", and clean it up to make sure executed not more than once."));
        log.info("command={} job={}/{} action={}", key, key.namespace(), jobName, actionName);
        jobQueue.add(new ObjectKey(key.namespace(), jobName), JobRequest.command(action.get()));
    }

    /** The Job from the informer, or, if the informer has not shown it yet, from the API server. */
    private Optional<GenericKubernetesResource> job(String namespace, String name) {
        Optional<GenericKubernetesResource> cached = informers.job(namespace, name);
        if (cached.isPresent()) {
            return cached;
        }
        return Optional.ofNullable(client.genericKubernetesResources(VolcanoInformers.JOBS).inNamespace(namespace).withName(name).get());
    }

    private void reject(ObjectKey key, EventRecorder.Subject subject, String reason, String message) {
        events.record(subject, PlanEvent.warning(reason, message));
        log.info("command={} not run, deleted: {}", key, message);
        delete(key);
    }

    /** Deletes the Command; false when it was gone already (another controller took it). */
    private boolean delete(ObjectKey key) {
        try {
            return !client.genericKubernetesResources(VolcanoInformers.COMMANDS).inNamespace(key.namespace()).withName(key.name()).delete()
                    .isEmpty();
        } catch (KubernetesClientException e) {
            if (e.getCode() == NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }
}
