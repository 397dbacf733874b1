package dev.muster.jobs.runtime;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.jobs.JobReadResult;
import dev.muster.jobs.controller.PlanEvent;
import dev.muster.jobs.flow.JobFlowReader;
import dev.muster.jobs.flow.JobFlowReconciler;
import dev.muster.jobs.flow.JobTemplate;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.controller.ObjectKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Volcano's JobTemplate controller: writes {@code status.jobDependsOnList}, the names of the Jobs made
 * from the template (labelled {@code volcano.sh/createdByJobTemplate: <namespace>.<template>}), sorted,
 * and only when the list changed. Unlike Volcano, which only ever adds to it, a Job deleted since
 * leaves the list. A template Muster cannot read gets one Warning event {@code InvalidJobTemplate}
 * naming every problem, again only when they change; the Jobs made from it fail with the same
 * problems ({@code InvalidSpec}), and nothing else stops.
 */
final class JobTemplateController {
    static final String INVALID = "InvalidJobTemplate";
    private static final int NOT_FOUND = 404;

    private final KubernetesClient client;
    private final VolcanoInformers informers;
    private final EventWriter events;
    /** The list last written, by template uid. */
    private final Map<String, JsonNode> written = new ConcurrentHashMap<>();
    /** The problems last reported, by template uid. */
    private final Map<String, String> reported = new ConcurrentHashMap<>();

    JobTemplateController(KubernetesClient client, VolcanoInformers informers, EventWriter events) {
        this.client = requireNonNull(client, "client is null");
        this.informers = requireNonNull(informers, "informers is null");
        this.events = requireNonNull(events, "events is null");
    }

    void process(ObjectKey key) {
        GenericKubernetesResource object = informers.templates.getStore().getByKey(key.toString());
        if (object == null) {
            return;
        }
        ObjectNode tree = informers.tree(object, JobTemplate.API_VERSION, JobTemplate.KIND);
        String uid = tree.path("metadata").path("uid").asText("");
        JobReadResult<JobTemplate> read = JobFlowReader.readTemplate(tree);
        String problems = String.join("; ", read.problems());
        if (!problems.isEmpty() && !problems.equals(reported.get(uid))) {
            events.record(new EventRecorder.Subject(JobTemplate.API_VERSION, JobTemplate.KIND, key.namespace(), key.name(), uid),
                    PlanEvent.warning(INVALID, problems));
        }
        reported.put(uid, problems);
        ArrayNode names = JsonNodeFactory.instance.arrayNode();
        informers.jobsOfTemplate(key).stream().sorted().forEach(names::add);
        JsonNode stored = Optional.ofNullable(written.get(uid)).orElse(tree.path("status").path("jobDependsOnList"));
        JsonNode desired = names.isEmpty() ? JsonNodeFactory.instance.missingNode() : names;
        if (Objects.equals(stored, desired)) {
            return;
        }
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.putObject("status").set("jobDependsOnList", names.isEmpty() ? JsonNodeFactory.instance.nullNode() : names);
        try {
            client.genericKubernetesResources(VolcanoInformers.JOB_TEMPLATES).inNamespace(key.namespace()).withName(key.name())
                    .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
        } catch (KubernetesClientException e) {
            if (e.getCode() == NOT_FOUND) {
                // deleted meanwhile; the informer will say so
                return;
            }
            throw e;
        }
        written.put(uid, desired);
    }

    void templateDeleted(String uid) {
        written.remove(uid);
        reported.remove(uid);
    }

    /** The template a Job was made from, from its {@code volcano.sh/createdByJobTemplate} label ({@code <namespace>.<name>}). */
    static Optional<ObjectKey> templateOf(Map<String, String> labels) {
        String value = labels == null ? null : labels.get(JobFlowReconciler.CREATED_BY_JOB_TEMPLATE);
        if (value == null) {
            return Optional.empty();
        }
        // a namespace is a DNS label, without dots; a template name may have them
        int dot = value.indexOf('.');
        return dot <= 0 || dot == value.length() - 1 ? Optional.empty() : Optional.of(new ObjectKey(value.substring(0, dot), value.substring(dot + 1)));
    }
}
