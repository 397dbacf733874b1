package dev.muster.bridge.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.runtime.informers.KubernetesResources;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A test's view of training jobs on a cluster: submitting examples, and reading back jobs, pods, PodGroups and Events. */
final class TrainingJobs {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final String namespace;

    TrainingJobs(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    /** Every container of every replica asks for {@code cpu}, so a test knows what fits. */
    static ObjectNode withCpu(ObjectNode job, String cpu) {
        JsonNode specs = job.path("spec").path(TestingJobs.kindOf(job).replicaSpecsField());
        for (JsonNode spec : specs) {
            for (JsonNode container : spec.path("template").path("spec").path("containers")) {
                ((ObjectNode) container).with("resources").with("requests").put("cpu", cpu);
            }
        }
        return job;
    }

    void submit(ObjectNode job) {
        client.genericKubernetesResources(TestingJobs.kindOf(job).context()).inNamespace(namespace)
                .resource(JSON.convertValue(job, GenericKubernetesResource.class)).create();
    }

    Optional<JsonNode> job(TrainingKind kind, String name) {
        return Optional.ofNullable(client.genericKubernetesResources(kind.context()).inNamespace(namespace).withName(name).get())
                .map(JSON::valueToTree);
    }

    /** Whether the job has a condition of this type with status True. */
    boolean hasCondition(TrainingKind kind, String name, String type) {
        return condition(kind, name, type).map(condition -> condition.path("status").asText().equals("True")).orElse(false);
    }

    Optional<JsonNode> condition(TrainingKind kind, String name, String type) {
        for (JsonNode condition : job(kind, name).map(job -> job.path("status").path("conditions")).orElse(JSON.createArrayNode())) {
            if (condition.path("type").asText().equals(type)) {
                return Optional.of(condition);
            }
        }
        return Optional.empty();
    }

    List<Pod> pods(String job) {
        return client.pods().inNamespace(namespace).withLabels(Map.of(KubeflowApi.JOB_NAME_LABEL, job)).list().getItems();
    }

    static boolean bound(Pod pod) {
        return pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty();
    }

    Optional<GenericKubernetesResource> volcanoPodGroup(String name) {
        return Optional.ofNullable(client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS)
                .inNamespace(namespace).withName(name).get());
    }

    Optional<GenericKubernetesResource> coschedulingPodGroup(String name) {
        return Optional.ofNullable(client.genericKubernetesResources(TrainingJobTerm.COSCHEDULING_POD_GROUPS).inNamespace(namespace)
                .withName(name).get());
    }

    /** The Events of the bridge on a job. */
    List<Event> bridgeEvents(String job) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getName().equals(job))
                .filter(event -> TrainingJobWriter.COMPONENT.equals(event.getSource().getComponent()))
                .toList();
    }
}
