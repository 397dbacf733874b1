package dev.muster.jobs.runtime;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.jobs.JobReadResult;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.VolcanoJobReader;
import dev.muster.jobs.flow.JobFlow;
import dev.muster.jobs.flow.JobFlowPlan;
import dev.muster.jobs.flow.JobFlowReader;
import dev.muster.jobs.flow.JobFlowReconciler;
import dev.muster.jobs.flow.JobTemplate;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.controller.KeyedWorkQueue;
import dev.muster.runtime.controller.ObjectKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JobFlow controller against the API server: reads a flow, the JobTemplates of its namespace and
 * the Jobs it controls from the informers, reconciles, and writes the plan: Jobs to create and delete,
 * the status (remembered, as the Job controller remembers its own), events, a requeue.
 */
final class JobFlowController {
    /** The one request a flow gets: look at it again. */
    enum Sync {
        SYNC
    }

    private static final Logger log = LoggerFactory.getLogger(JobFlowController.class);
    private static final int CONFLICT = 409;
    private static final int NOT_FOUND = 404;

    private final KubernetesClient client;
    private final VolcanoInformers informers;
    private final JobFlowReconciler reconciler = new JobFlowReconciler();
    private final EventWriter events;
    /** The status last written, by flow uid. */
    private final Map<String, ObjectNode> statuses = new ConcurrentHashMap<>();

    JobFlowController(KubernetesClient client, VolcanoInformers informers, EventWriter events) {
        this.client = requireNonNull(client, "client is null");
        this.informers = requireNonNull(informers, "informers is null");
        this.events = requireNonNull(events, "events is null");
    }

    void process(ObjectKey key, KeyedWorkQueue<ObjectKey, Sync> queue) {
        GenericKubernetesResource object = informers.flows.getStore().getByKey(key.toString());
        if (object == null) {
            return;
        }
        ObjectNode tree = informers.tree(object, JobFlow.API_VERSION, JobFlow.KIND);
        String uid = tree.path("metadata").path("uid").asText("");
        Optional.ofNullable(statuses.get(uid)).ifPresent(status -> tree.set("status", status.deepCopy()));
        JsonNode stored = tree.get("status");
        JobReadResult<JobFlow> read = JobFlowReader.readFlow(tree);
        JobFlow flow = read.object().orElseThrow();
        EventRecorder.Subject subject = new EventRecorder.Subject(JobFlow.API_VERSION, JobFlow.KIND, key.namespace(), key.name(), uid);
        JobFlowPlan plan = read.problems().isEmpty()
                ? reconciler.reconcile(flow, templates(key.namespace()), jobs(key, uid))
                : reconciler.invalid(flow, read.problems());
        log.debug("jobflow={} create={} delete={}", key, plan.jobNamesToCreate(), plan.jobsToDelete());
        for (ObjectNode job : plan.jobsToCreate()) {
            try {
                client.genericKubernetesResources(VolcanoInformers.JOBS).inNamespace(key.namespace())
                        .resource(client.getKubernetesSerialization().convertValue(job, GenericKubernetesResource.class)).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != CONFLICT) {
                    throw e;
                }
            }
        }
        for (String job : plan.jobsToDelete()) {
            try {
                client.genericKubernetesResources(VolcanoInformers.JOBS).inNamespace(key.namespace()).withName(job).delete();
            } catch (KubernetesClientException e) {
                if (e.getCode() != NOT_FOUND) {
                    throw e;
                }
            }
        }
        plan.status().ifPresent(status -> writeStatus(key, uid, stored, status.toJson()));
        plan.events().forEach(event -> events.record(subject, event));
        plan.requeueAfter().ifPresent(after -> queue.addAfter(key, Sync.SYNC, after));
    }

    void flowDeleted(String uid) {
        statuses.remove(uid);
    }

    private void writeStatus(ObjectKey key, String uid, JsonNode stored, ObjectNode status) {
        ObjectNode diff = MergePatchDiff.between(stored, status);
        if (diff.isEmpty()) {
            return;
        }
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.set("status", diff);
        try {
            client.genericKubernetesResources(VolcanoInformers.JOB_FLOWS).inNamespace(key.namespace()).withName(key.name())
                    .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
        } catch (KubernetesClientException e) {
            if (e.getCode() == NOT_FOUND) {
                // deleted meanwhile; the informer will say so
                return;
            }
            throw e;
        }
        statuses.put(uid, status.deepCopy());
    }

    /** The namespace's templates as far as they can be read; a template with problems still makes its Job, which then says what is wrong. */
    private Map<String, JobTemplate> templates(String namespace) {
        Map<String, JobTemplate> templates = new HashMap<>();
        for (GenericKubernetesResource object : informers.templates.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace)) {
            JobFlowReader.readTemplate(informers.tree(object, JobTemplate.API_VERSION, JobTemplate.KIND)).object()
                    .ifPresent(template -> templates.put(template.name(), template));
        }
        return templates;
    }

    private List<VolcanoJob> jobs(ObjectKey flow, String uid) {
        List<VolcanoJob> jobs = new ArrayList<>();
        for (GenericKubernetesResource object : informers.jobs.getIndexer().byIndex(VolcanoInformers.BY_FLOW, flow.toString())) {
            if (VolcanoInformers.controller(object, JobFlow.KIND).filter(owner -> owner.getUid().equals(uid)).isPresent()) {
                VolcanoJobReader.read(informers.tree(object, VolcanoJob.API_VERSION, VolcanoJob.KIND)).object().ifPresent(jobs::add);
            }
        }
        return jobs;
    }
}
