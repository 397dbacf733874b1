package dev.muster.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Volcano Jobs and JobFlows on an API server, for tests: created from YAML, read back by name. */
final class VolcanoObjects {
    static final ResourceDefinitionContext JOBS = context("batch.volcano.sh", "Job", "jobs");
    static final ResourceDefinitionContext JOB_FLOWS = context("flow.volcano.sh", "JobFlow", "jobflows");
    static final ResourceDefinitionContext JOB_TEMPLATES = context("flow.volcano.sh", "JobTemplate", "jobtemplates");
    static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder().withGroup("scheduling.volcano.sh")
            .withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups").withNamespaced(true).build();

    private VolcanoObjects() {}

    /** The text of a file of {@code examples/jobs}, read from the repository. */
    static String example(String file) throws IOException {
        return Files.readString(Path.of("..", "examples", "jobs", file), StandardCharsets.UTF_8);
    }

    /** Creates every object of the YAML, in order. */
    static void create(KubernetesClient client, String yaml) {
        for (HasMetadata object : client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
            client.resource(object).create();
        }
    }

    static GenericKubernetesResource job(KubernetesClient client, String namespace, String name) {
        return client.genericKubernetesResources(JOBS).inNamespace(namespace).withName(name).get();
    }

    /** The Job's {@code status.state.phase}, empty while it has none or does not exist. */
    static String phase(KubernetesClient client, String namespace, String name) {
        GenericKubernetesResource job = job(client, namespace, name);
        return job == null ? "" : Objects.toString(job.get("status", "state", "phase"), "");
    }

    static String flowPhase(KubernetesClient client, String namespace, String name) {
        GenericKubernetesResource flow = client.genericKubernetesResources(JOB_FLOWS).inNamespace(namespace).withName(name).get();
        return flow == null ? "" : Objects.toString(flow.get("status", "state", "phase"), "");
    }

    /** The JobFlow's {@code status.jobStatusList}, each entry as {@code name=state}. */
    @SuppressWarnings("unchecked")
    static List<String> flowJobStates(KubernetesClient client, String namespace, String name) {
        GenericKubernetesResource flow = client.genericKubernetesResources(JOB_FLOWS).inNamespace(namespace).withName(name).get();
        List<Map<String, Object>> entries = flow == null ? null : flow.get("status", "jobStatusList");
        return entries == null ? List.of() : entries.stream().map(entry -> entry.get("name") + "=" + entry.get("state")).toList();
    }

    /** The events recorded on an object, each as {@code type reason: message}. */
    static List<String> events(KubernetesClient client, String namespace, String kind, String name) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(event -> kind.equals(event.getInvolvedObject().getKind()) && name.equals(event.getInvolvedObject().getName()))
                .map(event -> event.getType() + " " + event.getReason() + ": " + event.getMessage())
                .toList();
    }

    private static ResourceDefinitionContext context(String group, String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion("v1alpha1").withKind(kind).withPlural(plural)
                .withNamespaced(true).build();
    }
}
