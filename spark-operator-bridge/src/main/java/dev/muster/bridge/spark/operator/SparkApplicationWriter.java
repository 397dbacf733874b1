package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.bridge.spark.operator.SparkApplicationPlan.PodGroupSpec;
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
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a {@link SparkApplicationPlan} through the API server: Warning Events on the SparkApplication
 * ({@code InvalidSpec} for problems, {@code SpecWarning} for warnings, {@code Unschedulable}; each
 * message once per application; problems and warnings of a ScheduledSparkApplication's run also on that
 * ScheduledSparkApplication, naming its {@code spec.template} field), and the Volcano PodGroup's fields
 * (merged into the operator's group, or the bridge's mirror created or updated). Writing a plan twice
 * changes nothing. Thread-safe.
 */
final class SparkApplicationWriter {
    static final String COMPONENT = "muster-spark-bridge";
    static final String INVALID_REASON = "InvalidSpec";
    static final String PENDING_REASON = "Unschedulable";
    static final String WARNING_REASON = "SpecWarning";
    private static final Logger log = LoggerFactory.getLogger(SparkApplicationWriter.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final EventRecorder events;
    /**
     * Per application ({@code namespace/name}), its uid and the events already told about it, so each is told
     * once; forgotten when the application is gone ({@link #forget}), so a long leader term does not keep every
     * run's messages.
     */
    private final ConcurrentHashMap<String, Told> told = new ConcurrentHashMap<>();
    /** The template events told on ScheduledSparkApplications: one per uid and message, not per run. */
    private final Set<String> toldOnTemplates = ConcurrentHashMap.newKeySet();

    private record Told(String uid, Set<String> messages) {}

    SparkApplicationWriter(KubernetesClient client, EventRecorder events) {
        this.client = requireNonNull(client, "client is null");
        this.events = requireNonNull(events, "events is null");
    }

    void write(SparkApplication application, SparkApplicationPlan plan) {
        for (FieldProblem problem : plan.problems()) {
            event(application, INVALID_REASON, problem.toString());
            templateEvent(application, INVALID_REASON, problem);
        }
        for (FieldProblem warning : plan.warnings()) {
            event(application, WARNING_REASON, warning.toString());
            templateEvent(application, WARNING_REASON, warning);
        }
        plan.podGroup().ifPresent(spec -> podGroup(application, spec));
        plan.pending().ifPresent(message -> event(application, PENDING_REASON, message));
    }

    /** The application {@code namespace/name} is gone: what was told about it need not be remembered. */
    void forget(String namespace, String name) {
        told.remove(namespace + "/" + name);
    }

    /** How many applications' told events are remembered. */
    int remembered() {
        return told.size();
    }

    private void event(SparkApplication application, String reason, String message) {
        Set<String> messages = told.compute(application.namespace() + "/" + application.name(),
                (key, known) -> known != null && known.uid().equals(application.uid()) ? known
                        : new Told(application.uid(), ConcurrentHashMap.newKeySet())).messages();
        record(new EventRecorder.Subject(SparkOperatorApi.API_VERSION, SparkOperatorApi.KIND, application.namespace(), application.name(),
                application.uid()), messages, reason + " " + message, reason, message);
    }

    /**
     * Bad input in a run of a ScheduledSparkApplication comes from its {@code spec.template}, where the user fixes it,
     * and every run repeats it: told on the ScheduledSparkApplication too, with the template's field, once per message
     * (naming the first run it was seen in).
     */
    private void templateEvent(SparkApplication application, String reason, FieldProblem problem) {
        if (application.scheduledBy().isEmpty()) {
            return;
        }
        SparkApplication.ScheduledBy scheduled = application.scheduledBy().get();
        FieldProblem inTemplate = problem.inTemplate();
        record(new EventRecorder.Subject(SparkOperatorApi.API_VERSION, SparkOperatorApi.SCHEDULED_KIND, application.namespace(),
                scheduled.name(), scheduled.uid()), toldOnTemplates, scheduled.uid() + " " + reason + " " + inTemplate, reason,
                inTemplate + " (in its run " + application.name() + ")");
    }

    private void record(EventRecorder.Subject subject, Set<String> reported, String key, String reason, String message) {
        if (!reported.add(key)) {
            return;
        }
        if (!events.record(subject, true, reason, message).join()) {
            reported.remove(key);
            log.warn("event not recorded {}={}/{} reason={}", subject.kind(), subject.namespace(), subject.name(), reason);
        }
    }

    private void podGroup(SparkApplication application, PodGroupSpec wanted) {
        NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> podGroups =
                client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace(application.namespace());
        GenericKubernetesResource existing = podGroups.withName(wanted.name()).get();
        if (existing == null) {
            if (wanted.mirror()) {
                createMirror(application, wanted, podGroups);
            }
            // the operator's group is gone (the application ended): nothing to complete
            return;
        }
        JsonNode current = JSON.valueToTree(existing);
        if (wanted.mirror() != current.path("metadata").path("labels").has(SparkOperatorApi.MIRROR_OF)) {
            // a PodGroup of that name that is not the one expected (a user's): not ours to change
            return;
        }
        ObjectNode patch = patch(wanted, current);
        if (patch.size() > 0) {
            podGroups.withName(wanted.name()).patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
            log.info("podgroup={}/{} completed for application={} minResources={} queue={}", application.namespace(), wanted.name(),
                    application.displayName(), wanted.minResources(), wanted.queue().orElse("(the operator's)"));
        }
    }

    /** A merge patch of what differs, empty when nothing does; resources no longer wanted are removed. */
    private static ObjectNode patch(PodGroupSpec wanted, JsonNode current) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        ObjectNode spec = JsonNodeFactory.instance.objectNode();
        JsonNode currentSpec = current.path("spec");
        if (!wanted.minResources().isEmpty()) {
            ObjectNode resources = JsonNodeFactory.instance.objectNode();
            wanted.minResources().forEach(resources::put);
            if (!currentSpec.path("minResources").equals(resources)) {
                for (Iterator<String> names = currentSpec.path("minResources").fieldNames(); names.hasNext(); ) {
                    String name = names.next();
                    if (!resources.has(name)) {
                        resources.putNull(name);
                    }
                }
                spec.set("minResources", resources);
            }
        }
        if (wanted.mirror() && currentSpec.path("minMember").asInt(0) != wanted.minMember()) {
            spec.put("minMember", wanted.minMember());
        }
        wanted.queue().filter(queue -> !queue.equals(currentSpec.path("queue").asText(""))).ifPresent(queue -> spec.put("queue", queue));
        wanted.priorityClassName().filter(name -> !name.equals(currentSpec.path("priorityClassName").asText("")))
                .ifPresent(name -> spec.put("priorityClassName", name));
        if (spec.size() > 0) {
            patch.set("spec", spec);
        }
        ObjectNode annotations = JsonNodeFactory.instance.objectNode();
        JsonNode currentAnnotations = current.path("metadata").path("annotations");
        wanted.annotations().forEach((key, value) -> {
            if (!value.equals(currentAnnotations.path(key).asText(null))) {
                annotations.put(key, value);
            }
        });
        if (annotations.size() > 0) {
            patch.putObject("metadata").set("annotations", annotations);
        }
        return patch;
    }

    private static void createMirror(SparkApplication application, PodGroupSpec wanted,
            NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> podGroups) {
        ObjectNode object = JsonNodeFactory.instance.objectNode().put("apiVersion", "scheduling.volcano.sh/v1beta1").put("kind", "PodGroup");
        ObjectNode metadata = object.putObject("metadata").put("name", wanted.name()).put("namespace", application.namespace());
        metadata.putObject("labels").put(SparkOperatorApi.MIRROR_OF, "scheduling.x-k8s.io")
                .put(SparkOperatorApi.APP_NAME_LABEL, application.name());
        ObjectNode annotations = metadata.putObject("annotations");
        wanted.annotations().forEach(annotations::put);
        metadata.putArray("ownerReferences").addObject().put("apiVersion", SparkOperatorApi.API_VERSION).put("kind", SparkOperatorApi.KIND)
                .put("name", application.name()).put("uid", application.uid()).put("blockOwnerDeletion", true).put("controller", false);
        ObjectNode spec = object.putObject("spec").put("minMember", wanted.minMember());
        wanted.queue().ifPresent(queue -> spec.put("queue", queue));
        wanted.priorityClassName().ifPresent(name -> spec.put("priorityClassName", name));
        if (!wanted.minResources().isEmpty()) {
            ObjectNode resources = spec.putObject("minResources");
            wanted.minResources().forEach(resources::put);
        }
        try {
            podGroups.resource(JSON.convertValue(object, GenericKubernetesResource.class)).create();
            log.info("podgroup={}/{} written for application={} minResources={}", application.namespace(), wanted.name(),
                    application.displayName(), wanted.minResources());
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
        }
    }
}
