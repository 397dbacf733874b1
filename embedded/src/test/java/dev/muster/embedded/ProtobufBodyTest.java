package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Writes in Kubernetes' protobuf encoding, as client-go sends them when a program sets
 * {@code ContentType: application/vnd.kubernetes.protobuf} (Argo's workflow controller, kube-scheduler),
 * are stored as the JSON kube-apiserver would store. The bodies are built with protobuf-java from
 * Kubernetes' own message definitions, as Go's marshaller lays them out.
 */
class ProtobufBodyTest {
    private static final String CORE = "k8s.io.api.core.v1.";
    private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
    private static EmbeddedApiServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void aPodWrittenInProtobufIsStoredAsItsJson() throws Exception {
        // given: what Go's marshaller writes, zero fields included
        String quantity = "k8s.io.apimachinery.pkg.api.resource.Quantity";
        DynamicMessage resources = message(CORE + "ResourceRequirements", Map.of("requests", Map.of(
                "cpu", message(quantity, Map.of("string", "500m")), "memory", message(quantity, Map.of("string", "1Gi")))));
        DynamicMessage port = message("k8s.io.apimachinery.pkg.util.intstr.IntOrString", Map.of("type", 1L, "strVal", "http"));
        DynamicMessage probe = message(CORE + "Probe", Map.of("handler", message(CORE + "ProbeHandler", Map.of(
                "httpGet", message(CORE + "HTTPGetAction", Map.of("path", "/healthz", "port", port))))));
        DynamicMessage container = message(CORE + "Container", Map.of("name", "main", "image", "busybox", "imagePullPolicy", "",
                "resources", resources, "livenessProbe", probe,
                "ports", List.of(message(CORE + "ContainerPort", Map.of("containerPort", 8080, "protocol", "TCP")))));
        DynamicMessage pod = message(CORE + "Pod", Map.of(
                "metadata", message(META + "ObjectMeta", Map.of("name", "from-go", "namespace", "default", "generateName", "",
                        "labels", Map.of("workflows.argoproj.io/workflow", "steps"), "creationTimestamp", message(META + "Time", Map.of()))),
                "spec", message(CORE + "PodSpec", Map.of("containers", List.of(container), "schedulerName", "muster",
                        "restartPolicy", "Never", "hostNetwork", false)),
                "status", message(CORE + "PodStatus", Map.of())));

        // when
        HttpResponse<String> response = post("/api/v1/namespaces/default/pods", envelope("v1", "Pod", pod));

        // then
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        Pod stored = client.pods().inNamespace("default").withName("from-go").get();
        assertThat(stored.getMetadata().getLabels()).containsEntry("workflows.argoproj.io/workflow", "steps");
        assertThat(stored.getMetadata().getGenerateName()).isNull();
        assertThat(stored.getMetadata().getCreationTimestamp()).isNotEmpty();
        assertThat(stored.getSpec().getSchedulerName()).isEqualTo("muster");
        assertThat(stored.getSpec().getHostNetwork()).isNull();
        Container main = stored.getSpec().getContainers().get(0);
        assertThat(main.getResources().getRequests()).hasEntrySatisfying("cpu", cpu -> assertThat(cpu.toString()).isEqualTo("500m"))
                .hasEntrySatisfying("memory", memory -> assertThat(memory.toString()).isEqualTo("1Gi"));
        assertThat(main.getPorts().get(0).getContainerPort()).isEqualTo(8080);
        assertThat(main.getLivenessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("http");
        assertThat(main.getImagePullPolicy()).isNotEqualTo("");
        assertThat(stored.getStatus().getPhase()).isEqualTo("Pending");
    }

    @Test
    void aKindWithoutItsDefinitionHereIsRefusedAsAnUnsupportedMediaTypeNamingIt() throws Exception {
        // when
        HttpResponse<String> response = post("/apis/storage.k8s.io/v1/storageclasses",
                envelope("storage.k8s.io/v1", "StorageClass", message(META + "Status", Map.of())));

        // then
        assertThat(response.statusCode()).isEqualTo(415);
        assertThat(response.body()).contains("cannot read storage.k8s.io/v1 StorageClass in protobuf; send it as JSON");
    }

    @Test
    void aReplicaSetWrittenInProtobufAsTheDeploymentControllerWritesItIsStored() throws Exception {
        // given: kube-controller-manager's deployment controller writes its ReplicaSets in protobuf
        String apps = "k8s.io.api.apps.v1.";
        DynamicMessage selector = message(META + "LabelSelector", Map.of("matchLabels", Map.of("app", "web")));
        DynamicMessage template = message(CORE + "PodTemplateSpec", Map.of(
                "metadata", message(META + "ObjectMeta", Map.of("labels", Map.of("app", "web"))),
                "spec", message(CORE + "PodSpec", Map.of("containers", List.of(message(CORE + "Container", Map.of("name", "main",
                        "image", "nginx:1")))))));
        DynamicMessage replicaSet = message(apps + "ReplicaSet", Map.of(
                "metadata", message(META + "ObjectMeta", Map.of("name", "web-789576cd9", "namespace", "default")),
                "spec", message(apps + "ReplicaSetSpec", Map.of("replicas", 2, "selector", selector, "template", template))));

        // when
        HttpResponse<String> response = post("/apis/apps/v1/namespaces/default/replicasets", envelope("apps/v1", "ReplicaSet", replicaSet));

        // then
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        ReplicaSet stored = client.apps().replicaSets().inNamespace("default").withName("web-789576cd9").get();
        assertThat(stored.getSpec().getReplicas()).isEqualTo(2);
        assertThat(stored.getSpec().getSelector().getMatchLabels()).containsEntry("app", "web");
        assertThat(stored.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("nginx:1");
        assertThat(stored.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Always");
    }

    @Test
    void aWebhookConfigurationWrittenInProtobufIsStoredAndServed() throws Exception {
        // given: what a certificate rotator (the training operator's cert-controller) writes with its CA; the proto
        // names the list "Webhooks", in Go's case, and JSON "webhooks"
        String admission = "k8s.io.api.admissionregistration.v1.";
        DynamicMessage webhook = message(admission + "ValidatingWebhook", Map.of("name", "validate.kubeflow.org",
                "clientConfig", message(admission + "WebhookClientConfig", Map.of("caBundle", ByteString.copyFromUtf8("ca"))),
                "admissionReviewVersions", List.of("v1"), "sideEffects", "None"));
        DynamicMessage configuration = message(admission + "ValidatingWebhookConfiguration", Map.of(
                "metadata", message(META + "ObjectMeta", Map.of("name", "validator.training-operator.kubeflow.org")),
                "Webhooks", List.of(webhook)));

        // when
        HttpResponse<String> response = post("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
                envelope("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", configuration));

        // then
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        ValidatingWebhookConfiguration stored = client.admissionRegistration().v1().validatingWebhookConfigurations()
                .withName("validator.training-operator.kubeflow.org").get();
        assertThat(stored.getWebhooks()).singleElement().satisfies(served -> {
            assertThat(served.getName()).isEqualTo("validate.kubeflow.org");
            assertThat(served.getClientConfig().getCaBundle()).isEqualTo(Base64.getEncoder().encodeToString("ca".getBytes(StandardCharsets.UTF_8)));
        });
        assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations().list().getItems()).hasSize(1);
    }

    @Test
    void aBodyThatIsNotKubernetesProtobufIsRefused() throws Exception {
        // when
        HttpResponse<String> response = post("/api/v1/namespaces/default/pods", "{\"kind\":\"Pod\"}".getBytes(StandardCharsets.UTF_8));

        // then
        assertThat(response.statusCode()).isEqualTo(415);
        assertThat(response.body()).contains("does not start with Kubernetes' protobuf prefix");
    }

    /** A message of that type with those fields; a map value becomes a protobuf map, a list a repeated field. */
    private static DynamicMessage message(String type, Map<String, ?> fields) {
        Descriptor descriptor = ProtobufBodies.instance().descriptor(type).orElseThrow();
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(descriptor);
        fields.forEach((name, value) -> {
            var field = descriptor.findFieldByName(name);
            if (field == null) {
                throw new IllegalArgumentException(type + " has no field " + name);
            }
            if (field.isMapField() && value instanceof Map<?, ?> map) {
                Descriptor entry = field.getMessageType();
                map.forEach((key, item) -> builder.addRepeatedField(field, DynamicMessage.newBuilder(entry)
                        .setField(entry.findFieldByName("key"), key).setField(entry.findFieldByName("value"), item).build()));
            } else if (field.isRepeated() && value instanceof List<?> list) {
                list.forEach(item -> builder.addRepeatedField(field, item));
            } else {
                builder.setField(field, value);
            }
        });
        return builder.build();
    }

    /** {@code k8s\0} and a runtime.Unknown around the object, as Kubernetes' protobuf serializer frames it. */
    private static byte[] envelope(String apiVersion, String kind, Message object) throws Exception {
        DynamicMessage unknown = message("k8s.io.apimachinery.pkg.runtime.Unknown", Map.of(
                "typeMeta", message("k8s.io.apimachinery.pkg.runtime.TypeMeta", Map.of("apiVersion", apiVersion, "kind", kind)),
                "raw", ByteString.copyFrom(object.toByteArray()), "contentEncoding", "", "contentType", ""));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {'k', '8', 's', 0});
        unknown.writeTo(out);
        return out.toByteArray();
    }

    private static HttpResponse<String> post(String path, byte[] body) throws Exception {
        return TestingHttp.client(server).send(HttpRequest.newBuilder(URI.create(server.url() + path))
                .header("Content-Type", ProtobufBodies.MEDIA_TYPE).header("Accept", ProtobufBodies.MEDIA_TYPE + ",application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
