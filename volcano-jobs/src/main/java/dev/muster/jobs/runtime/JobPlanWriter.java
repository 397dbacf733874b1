package dev.muster.jobs.runtime;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.jobs.JobStatusJson;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.controller.JobPlan;
import dev.muster.jobs.controller.ObjectRef;
import dev.muster.jobs.controller.ObservedPod;
import dev.muster.jobs.controller.ObservedPods;
import dev.muster.jobs.controller.PlanEvent;
import dev.muster.jobs.controller.PodGroupFactory;
import dev.muster.jobs.controller.PodGroupManifest;
import dev.muster.runtime.binding.EventRecorder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Deletable;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Writes one {@link JobPlan} to the API server in the order its Javadoc gives, through the job's
 * {@link JobMemory}. A 409 on create means the object exists (the informer lags): fine; a 404 on
 * delete means it is gone: fine; any other error is thrown, and the request is tried again. Object
 * contents are never logged (the ssh Secret holds a private key).
 */
final class JobPlanWriter {
    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;
    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

    private final KubernetesClient client;
    private final VolcanoInformers informers;
    private final EventWriter events;

    JobPlanWriter(KubernetesClient client, VolcanoInformers informers, EventWriter events) {
        this.client = requireNonNull(client, "client is null");
        this.informers = requireNonNull(informers, "informers is null");
        this.events = requireNonNull(events, "events is null");
    }

    /**
     * Applies everything but the delayed requests and the requeue, which are the caller's.
     *
     * @param storedStatus the job's status as last stored, which the new status replaces
     */
    void apply(VolcanoJob job, JsonNode storedStatus, JobPlan plan, JobMemory memory) {
        String namespace = job.namespace();
        if (plan.deleteJob()) {
            delete(client.genericKubernetesResources(VolcanoInformers.JOBS).inNamespace(namespace).withName(job.name()));
            plan.events().forEach(event -> events.record(subject(job), event));
            return;
        }
        if (plan.deletePodGroup()) {
            delete(client.genericKubernetesResources(VolcanoInformers.POD_GROUPS).inNamespace(namespace)
                    .withName(PodGroupFactory.podGroupName(job)));
        } else {
            plan.podGroup().ifPresent(this::createOrUpdate);
        }
        for (HasMetadata object : plan.objectsToCreate()) {
            createIfAbsent(object);
        }
        for (HasMetadata object : plan.objectsToApply()) {
            apply(object, memory);
        }
        for (String pod : plan.podsToDelete()) {
            deletePod(namespace, pod, memory);
        }
        for (ObjectRef object : plan.objectsToDelete()) {
            delete(client.genericKubernetesResources(context(object)).inNamespace(object.namespace()).withName(object.name()));
            memory.unapplied(object.kind() + "/" + object.name());
        }
        for (Pod pod : plan.podsToCreate()) {
            createPod(pod, memory);
        }
        plan.status().ifPresent(status -> writeStatus(job, storedStatus, JobStatusJson.write(status), memory));
        for (PlanEvent event : plan.events()) {
            events.record(subject(job), event);
        }
    }

    /** Those of {@code objects} the API server does not have. */
    ImmutableSet<ObjectRef> missing(List<ObjectRef> objects) {
        ImmutableSet.Builder<ObjectRef> missing = ImmutableSet.builder();
        for (ObjectRef object : objects) {
            if (client.genericKubernetesResources(context(object)).inNamespace(object.namespace()).withName(object.name()).get() == null) {
                missing.add(object);
            }
        }
        return missing.build();
    }

    static EventRecorder.Subject subject(VolcanoJob job) {
        return new EventRecorder.Subject(VolcanoJob.API_VERSION, VolcanoJob.KIND, job.namespace(), job.name(), job.metadata().uid());
    }

    /** Creates the PodGroup, or merge-patches its spec when it differs; never its status, which the scheduler writes. */
    private void createOrUpdate(PodGroupManifest manifest) {
        ObjectNode desired = manifest.toJson();
        Optional<GenericKubernetesResource> existing = informers.podGroup(manifest.namespace(), manifest.name());
        NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> podGroups = client.genericKubernetesResources(VolcanoInformers.POD_GROUPS).inNamespace(manifest.namespace());
        if (existing.isEmpty()) {
            try {
                podGroups.resource(client.getKubernetesSerialization().convertValue(desired, GenericKubernetesResource.class)).create();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != CONFLICT) {
                    throw e;
                }
            }
        }
        JsonNode stored = existing.map(object -> informers.tree(object, PodGroupManifest.API_VERSION, "PodGroup").path("spec"))
                .orElse(JsonNodeFactory.instance.objectNode());
        ObjectNode spec = (ObjectNode) desired.path("spec");
        if (existing.isPresent() && MergePatchDiff.between(stored, spec).isEmpty()) {
            return;
        }
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.set("spec", spec);
        podGroups.withName(manifest.name()).patch(MERGE, patch.toString());
    }

    private void createIfAbsent(HasMetadata object) {
        try {
            client.resource(object).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != CONFLICT) {
                throw e;
            }
        }
    }

    /** Creates the object, or merge-patches it when it exists; skipped when it is as last applied. */
    private void apply(HasMetadata object, JobMemory memory) {
        String key = object.getKind() + "/" + object.getMetadata().getName();
        String json = client.getKubernetesSerialization().asJson(object);
        if (memory.alreadyApplied(key, json)) {
            return;
        }
        try {
            client.resource(object).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != CONFLICT) {
                throw e;
            }
            client.resource(object).patch(MERGE, json);
        }
        memory.applied(key, json);
    }

    /** Marks the pod {@code volcano.sh/out-of-sync} first, so its deletion is not taken for an eviction, then deletes it. */
    private void deletePod(String namespace, String name, JobMemory memory) {
        PodResource pod = client.pods().inNamespace(namespace).withName(name);
        ObjectNode mark = JsonNodeFactory.instance.objectNode();
        mark.putObject("metadata").putObject("annotations").put(SchedulingApi.OUT_OF_SYNC, "true");
        try {
            Pod marked = pod.patch(MERGE, mark.toString());
            memory.podDeleted(marked.getMetadata().getUid());
        } catch (KubernetesClientException e) {
            if (e.getCode() == NOT_FOUND) {
                return;
            }
            throw e;
        }
        delete(pod);
    }

    private void createPod(Pod pod, JobMemory memory) {
        try {
            Pod created = client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
            Optional<ObservedPod> observed = ObservedPods.of(created);
            observed.ifPresent(value -> memory.podCreated(created.getMetadata().getName(), created.getMetadata().getUid(), value));
        } catch (KubernetesClientException e) {
            if (e.getCode() != CONFLICT) {
                throw e;
            }
        }
    }

    private void writeStatus(VolcanoJob job, JsonNode storedStatus, ObjectNode status, JobMemory memory) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.set("status", MergePatchDiff.between(storedStatus, status));
        try {
            client.genericKubernetesResources(VolcanoInformers.JOBS).inNamespace(job.namespace()).withName(job.name())
                    .subresource("status").patch(MERGE, patch.toString());
        } catch (KubernetesClientException e) {
            if (e.getCode() == NOT_FOUND) {
                // deleted meanwhile; the informer will say so
                return;
            }
            throw e;
        }
        memory.statusWritten(status);
    }

    private static void delete(Deletable object) {
        try {
            object.delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != NOT_FOUND) {
                throw e;
            }
        }
    }

    /** The resource of a plugin object: Services, ConfigMaps, Secrets, NetworkPolicies (regular English plurals). */
    static ResourceDefinitionContext context(ObjectRef object) {
        int slash = object.apiVersion().indexOf('/');
        String group = slash < 0 ? "" : object.apiVersion().substring(0, slash);
        String version = object.apiVersion().substring(slash + 1);
        String kind = object.kind().toLowerCase(Locale.ROOT);
        String plural = kind.endsWith("y") && !kind.endsWith("ey") ? kind.substring(0, kind.length() - 1) + "ies" : kind + "s";
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(object.kind()).withPlural(plural)
                .withNamespaced(true).build();
    }
}
