package dev.muster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * TFJobs and PyTorchJobs on an API server, for tests: {@code kubeflow-bridge}'s copies of the training operator's examples
 * made ready for the simulated kubelet, submitted, and read back with what they own (PodGroup, pods, Events).
 */
final class TrainingObjects {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path EXAMPLES = Path.of("..", "kubeflow-bridge", "src", "test", "resources", "examples");

    private TrainingObjects() {}

    static ObjectNode renamed(ObjectNode job, String name) {
        ((ObjectNode) job.path("metadata")).put("name", name);
        return job;
    }

    static ObjectNode example(String file, String duration) throws Exception {
        ObjectNode job = JSON.valueToTree(Serialization.unmarshal(Files.readString(EXAMPLES.resolve(file)), GenericKubernetesResource.class));
        for (JsonNode spec : job.path("spec").path(job.path("kind").asText().equals("TFJob") ? "tfReplicaSpecs" : "pytorchReplicaSpecs")) {
            ObjectNode template = (ObjectNode) spec.path("template");
            template.withObjectProperty("metadata").withObjectProperty("annotations").put("muster.dev/duration", duration);
            for (JsonNode container : template.path("spec").path("containers")) {
                ((ObjectNode) container).withObjectProperty("resources").withObjectProperty("requests").put("cpu", "1");
            }
        }
        return job;
    }

    static void submit(KubernetesClient client, ObjectNode job) {
        String plural = job.path("kind").asText().equals("TFJob") ? "tfjobs" : "pytorchjobs";
        client.genericKubernetesResources(context(plural)).inNamespace("default").resource(JSON.convertValue(job, GenericKubernetesResource.class))
                .create();
    }

    static ResourceDefinitionContext context(String plural) {
        return new ResourceDefinitionContext.Builder().withGroup("kubeflow.org").withVersion("v1").withPlural(plural)
                .withKind(plural.equals("tfjobs") ? "TFJob" : "PyTorchJob").withNamespaced(true).build();
    }

    static JsonNode job(KubernetesClient client, String plural, String name) {
        GenericKubernetesResource job = client.genericKubernetesResources(context(plural)).inNamespace("default").withName(name).get();
        return job == null ? JSON.createObjectNode() : JSON.valueToTree(job);
    }

    static Optional<JsonNode> condition(KubernetesClient client, String plural, String name, String type) {
        for (JsonNode condition : job(client, plural, name).path("status").path("conditions")) {
            if (condition.path("type").asText().equals(type)) {
                return Optional.of(condition);
            }
        }
        return Optional.empty();
    }

    static String status(KubernetesClient client, String plural, String name, String type) {
        return condition(client, plural, name, type).map(condition -> condition.path("status").asText()).orElse("none");
    }

    static Optional<GenericKubernetesResource> podGroup(KubernetesClient client, String name) {
        return Optional.ofNullable(client.genericKubernetesResources(VolcanoObjects.POD_GROUPS).inNamespace("default").withName(name).get());
    }

    static List<Pod> pods(KubernetesClient client, String job) {
        return client.pods().inNamespace("default").withLabel("training.kubeflow.org/job-name", job).list().getItems();
    }

    static Optional<Pod> pod(KubernetesClient client, String name) {
        return Optional.ofNullable(client.pods().inNamespace("default").withName(name).get());
    }

    static List<Event> events(KubernetesClient client, String job) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> job.equals(event.getInvolvedObject().getName())).toList();
    }
}
