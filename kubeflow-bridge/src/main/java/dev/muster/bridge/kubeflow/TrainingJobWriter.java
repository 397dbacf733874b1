package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.bridge.kubeflow.TrainingJobPlan.MirrorPodGroup;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.informers.KubernetesResources;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a {@link TrainingJobPlan} through the API server: Events on the job (each message once per job),
 * the {@code Invalid} condition in the job's status, {@code runPolicy.suspend} for bad input (and back once
 * the input is good, if the bridge suspended it), the mirror Volcano PodGroup and the default task topology
 * on the Volcano PodGroup. Writing a plan twice
 * changes nothing. Thread-safe: workers of different jobs call it at once.
 */
final class TrainingJobWriter {
    static final String COMPONENT = "muster-kubeflow-bridge";
    static final String INVALID_CONDITION = "Invalid";
    static final String INVALID_REASON = "InvalidSpec";
    static final String PENDING_REASON = "Unschedulable";
    static final String TIMEOUT_REASON = "GangTimeout";
    private static final Logger log = LoggerFactory.getLogger(TrainingJobWriter.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final EventRecorder events;
    private final Clock clock;
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    TrainingJobWriter(KubernetesClient client, EventRecorder events, Clock clock) {
        this.client = requireNonNull(client, "client is null");
        this.events = requireNonNull(events, "events is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    void write(GenericKubernetesResource object, TrainingJob job, TrainingJobPlan plan) {
        if (!plan.problems().isEmpty()) {
            String message = plan.problems().stream().map(FieldProblem::toString).collect(Collectors.joining("; "));
            for (FieldProblem problem : plan.problems()) {
                event(job, true, INVALID_REASON, problem.toString());
            }
            condition(object, job, "True", message);
            if (!job.suspended()) {
                patchJob(job, suspension(true, plan.problems().get(0).field()));
                log.info("job={} suspended for bad input: {}", job.displayName(), message);
            }
            return;
        }
        condition(object, job, "False", "the input is good");
        if (plan.resume()) {
            patchJob(job, suspension(false, null));
            log.info("job={} resumed: its input is good now", job.displayName());
        }
        plan.mirror().ifPresent(mirror -> mirror(job, mirror));
        if (!plan.podGroupAnnotations().isEmpty()) {
            annotatePodGroup(job, plan.podGroupAnnotations());
        }
        plan.pending().ifPresent(message -> event(job, true, PENDING_REASON, message));
        plan.timedOut().ifPresent(message -> event(job, true, TIMEOUT_REASON, message));
    }

    private void event(TrainingJob job, boolean warning, String reason, String message) {
        if (!reported.add(job.uid() + " " + reason + " " + message)) {
            return;
        }
        EventRecorder.Subject subject = new EventRecorder.Subject(KubeflowApi.API_VERSION, job.kind().kind(), job.namespace(), job.name(),
                job.uid());
        if (!events.record(subject, warning, reason, message).join()) {
            reported.remove(job.uid() + " " + reason + " " + message);
            log.warn("event not recorded job={} reason={}", job.displayName(), reason);
        }
    }

    /**
     * Sets the {@code Invalid} condition in the job's status, keeping the operator's conditions. An update
     * with the informer's resourceVersion: a conflict (the operator wrote meanwhile) throws, and the work
     * queue tries again. A job without the condition is left alone while its input is good.
     */
    private void condition(GenericKubernetesResource object, TrainingJob job, String status, String message) {
        ObjectNode copy = JSON.valueToTree(object);
        ObjectNode statusNode = copy.with("status");
        JsonNode existing = statusNode.path("conditions");
        ArrayNode conditions = JsonNodeFactory.instance.arrayNode();
        Optional<JsonNode> ours = Optional.empty();
        for (JsonNode condition : existing) {
            if (condition.path("type").asText("").equals(INVALID_CONDITION)) {
                ours = Optional.of(condition);
            } else {
                conditions.add(condition);
            }
        }
        if (ours.isEmpty() && status.equals("False")) {
            return;
        }
        if (ours.isPresent() && ours.get().path("status").asText("").equals(status) && ours.get().path("message").asText("").equals(message)) {
            return;
        }
        String now = DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
        boolean changed = ours.isEmpty() || !ours.get().path("status").asText("").equals(status);
        ObjectNode condition = conditions.addObject().put("type", INVALID_CONDITION).put("status", status)
                .put("reason", status.equals("True") ? INVALID_REASON : "InputGood").put("message", message).put("lastUpdateTime", now)
                .put("lastTransitionTime", changed ? now : ours.get().path("lastTransitionTime").asText(now));
        requireNonNull(condition, "condition is null");
        statusNode.set("conditions", conditions);
        client.genericKubernetesResources(job.kind().context()).inNamespace(job.namespace())
                .resource(JSON.convertValue(copy, GenericKubernetesResource.class)).updateStatus();
    }

    private static ObjectNode suspension(boolean suspend, String field) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.with("spec").with("runPolicy").put("suspend", suspend);
        ObjectNode annotations = patch.with("metadata").with("annotations");
        if (field == null) {
            annotations.putNull(KubeflowApi.SUSPENDED_BY_MUSTER);
        } else {
            annotations.put(KubeflowApi.SUSPENDED_BY_MUSTER, field);
        }
        return patch;
    }

    private void patchJob(TrainingJob job, ObjectNode patch) {
        client.genericKubernetesResources(job.kind().context()).inNamespace(job.namespace()).withName(job.name())
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
    }

    /** Adds annotations to the Volcano PodGroup named after the job; the operator's updates keep them (it updates the spec). */
    private void annotatePodGroup(TrainingJob job, Map<String, String> annotations) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        ObjectNode values = patch.with("metadata").with("annotations");
        annotations.forEach(values::put);
        client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace(job.namespace()).withName(job.name())
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
        log.info("podgroup={}/{} given the default task topology {}", job.namespace(), job.name(), annotations);
    }

    private void mirror(TrainingJob job, MirrorPodGroup mirror) {
        ObjectNode desired = JsonNodeFactory.instance.objectNode();
        ObjectNode spec = desired.putObject("spec").put("minMember", mirror.minMember()).put("queue", mirror.queue());
        mirror.priorityClassName().ifPresent(name -> spec.put("priorityClassName", name));
        if (!mirror.minResources().isEmpty()) {
            spec.set("minResources", mirror.minResources());
        }
        NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> podGroups =
                client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace(job.namespace());
        GenericKubernetesResource existing = podGroups.withName(mirror.name()).get();
        if (existing == null) {
            ObjectNode object = desired.deepCopy().put("apiVersion", "scheduling.volcano.sh/v1beta1").put("kind", "PodGroup");
            ObjectNode metadata = object.putObject("metadata").put("name", mirror.name()).put("namespace", job.namespace());
            metadata.putObject("labels").put(KubeflowApi.MIRROR_OF, "scheduling.x-k8s.io").put(KubeflowApi.JOB_NAME_LABEL, job.name());
            metadata.putArray("ownerReferences").addObject().put("apiVersion", KubeflowApi.API_VERSION).put("kind", job.kind().kind())
                    .put("name", job.name()).put("uid", job.uid()).put("blockOwnerDeletion", true).put("controller", false);
            try {
                podGroups.resource(JSON.convertValue(object, GenericKubernetesResource.class)).create();
                log.info("podgroup={}/{} written for job={} queue={} minMember={}", job.namespace(), mirror.name(), job.displayName(),
                        mirror.queue(), mirror.minMember());
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
            }
            return;
        }
        JsonNode current = JSON.valueToTree(existing);
        if (!current.path("metadata").path("labels").has(KubeflowApi.MIRROR_OF)) {
            // a PodGroup the operator (or a user) made: not ours to change
            return;
        }
        if (!current.path("spec").equals(spec)) {
            podGroups.withName(mirror.name()).patch(PatchContext.of(PatchType.JSON_MERGE), desired.toString());
        }
    }
}
