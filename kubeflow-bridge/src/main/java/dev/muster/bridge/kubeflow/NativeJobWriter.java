package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.bridge.kubeflow.NativeReplicaPlanner.NativeReplicas;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.informers.KubernetesResources;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a {@link NativeSyncPlan} through the API server: the Volcano PodGroup, then pods and Services (a
 * create that finds the object made already is not an error, so a plan written twice makes nothing twice),
 * deletions, Events (each message once per job), and the job's status, written only when it changed, with the
 * informer's resourceVersion (a conflict throws and the work queue tries again). Thread-safe.
 */
final class NativeJobWriter {
    static final String COMPONENT = "muster-kubeflow-native";
    private static final Logger log = LoggerFactory.getLogger(NativeJobWriter.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final EventRecorder events;
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    NativeJobWriter(KubernetesClient client, EventRecorder events) {
        this.client = requireNonNull(client, "client is null");
        this.events = requireNonNull(events, "events is null");
    }

    /**
     * Applies the plan; {@code replicas} is asked only when pods or Services are made, {@code minResources} only when the
     * PodGroup is ({@link GangResources}).
     */
    void write(GenericKubernetesResource object, NativeJob job, NativeSyncPlan plan, Supplier<NativeReplicas> replicas,
            Supplier<ObjectNode> minResources) {
        TrainingJob identity = job.job();
        if (plan.createPodGroup()) {
            create(identity, "podgroup", () -> client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS)
                    .inNamespace(identity.namespace()).resource(podGroup(identity, minResources.get())).create());
        }
        if (!plan.createPods().isEmpty() || !plan.createServices().isEmpty()) {
            NativeReplicas planned = replicas.get();
            planned.pods().stream().filter(pod -> plan.createPods().contains(pod.getMetadata().getName()))
                    .forEach(pod -> create(identity, "pod " + pod.getMetadata().getName(),
                            () -> client.pods().inNamespace(identity.namespace()).resource(pod).create()));
            planned.services().stream().filter(service -> plan.createServices().contains(service.getMetadata().getName()))
                    .forEach(service -> create(identity, "service " + service.getMetadata().getName(),
                            () -> client.services().inNamespace(identity.namespace()).resource(service).create()));
        }
        plan.deletePods().forEach(name -> client.pods().inNamespace(identity.namespace()).withName(name).delete());
        plan.deleteServices().forEach(name -> client.services().inNamespace(identity.namespace()).withName(name).delete());
        if (plan.deletePodGroup()) {
            client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace(identity.namespace())
                    .withName(identity.name()).delete();
        }
        if (!plan.deletePods().isEmpty()) {
            log.info("job={} deleted pods {}", identity.displayName(), plan.deletePods());
        }
        plan.events().forEach(event -> event(identity, event));
        writeStatus(object, identity, plan.status());
        if (plan.deleteJob()) {
            log.info("job={} deleted: its ttlSecondsAfterFinished has passed", identity.displayName());
            client.genericKubernetesResources(identity.kind().context()).inNamespace(identity.namespace()).withName(identity.name()).delete();
        }
    }

    /** Writes the status if it differs from the object's. */
    void writeStatus(GenericKubernetesResource object, TrainingJob job, NativeJobStatus status) {
        ObjectNode copy = JSON.valueToTree(object);
        JsonNode current = copy.path("status");
        ObjectNode desired = status.toJson(current);
        if (desired.equals(current)) {
            return;
        }
        copy.set("status", desired);
        client.genericKubernetesResources(job.kind().context()).inNamespace(job.namespace())
                .resource(JSON.convertValue(copy, GenericKubernetesResource.class)).updateStatus();
        log.debug("job={} status {}", job.displayName(), desired);
    }

    void event(TrainingJob job, NativeSyncPlan.Event event) {
        String key = job.uid() + " " + event.reason() + " " + event.message();
        if (!reported.add(key)) {
            return;
        }
        EventRecorder.Subject subject = new EventRecorder.Subject(KubeflowApi.API_VERSION, job.kind().kind(), job.namespace(), job.name(),
                job.uid());
        if (!events.record(subject, event.warning(), event.reason(), event.message()).join()) {
            reported.remove(key);
            log.warn("event not recorded job={} reason={}", job.displayName(), event.reason());
        }
    }

    /**
     * The PodGroup the operator's Volcano path makes ({@code job.go:250-300}): named after the job, {@code minMember}
     * from {@code minAvailable} or the total replicas, the queue ({@code default} when none), the priority class and
     * {@code minResources}, which Muster's enqueue action checks before it admits the gang. The
     * job is its controller, so deleting the job deletes it. One difference, as the bridge's mirror on the
     * scheduler-plugins path has it: an elastic PyTorchJob's {@code minMember} is its minimum
     * ({@link TrainingJob#gangMinimum()}), not its maximum, so it starts when its minimum fits.
     */
    private static GenericKubernetesResource podGroup(TrainingJob job, ObjectNode minResources) {
        ObjectNode object = JSON.createObjectNode().put("apiVersion", "scheduling.volcano.sh/v1beta1").put("kind", "PodGroup");
        ObjectNode metadata = object.putObject("metadata").put("name", job.name()).put("namespace", job.namespace());
        metadata.putObject("labels").put(KubeflowApi.JOB_NAME_LABEL, job.name());
        metadata.putArray("ownerReferences").addObject().put("apiVersion", KubeflowApi.API_VERSION).put("kind", job.kind().kind())
                .put("name", job.name()).put("uid", job.uid()).put("controller", true).put("blockOwnerDeletion", true);
        ObjectNode spec = object.putObject("spec").put("minMember", job.gangMinimum())
                .put("queue", job.schedulingPolicy().queue().orElse(TrainingJobPlanner.DEFAULT_QUEUE));
        job.schedulingPolicy().priorityClass().ifPresent(name -> spec.put("priorityClassName", name));
        spec.set("minResources", minResources);
        return JSON.convertValue(object, GenericKubernetesResource.class);
    }

    private static void create(TrainingJob job, String what, Supplier<HasMetadata> create) {
        try {
            HasMetadata created = create.get();
            log.debug("job={} created {} uid={}", job.displayName(), what, created.getMetadata().getUid());
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
        }
    }
}
