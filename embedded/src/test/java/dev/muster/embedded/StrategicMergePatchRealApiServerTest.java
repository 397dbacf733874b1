package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Strategic merge patch, side by side: the same patches sent to the embedded server and to a real
 * kube-apiserver leave the same objects, and a patch that cannot apply is refused alike.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class StrategicMergePatchRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void kubectlApplyChangingOneContainersImageKeepsTheOtherContainerAndTheFirstOnesResourcesAndEnv(RealControlPlane real)
            throws InterruptedException {
        Map<String, JsonNode> containers = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            // given: a pod of two containers, applied by kubectl
            TestingKubectl.Result created = TestingKubectl.run(side.kubeconfig(), "apply", "--validate=false", "-f",
                    TestingServers.manifest(twoContainerPod("web:1")).toString());
            assertThat(created.exitCode()).as(side + ": " + created.output()).isZero();

            // when: the same manifest, one image changed, applied again
            TestingKubectl.Result changed = TestingKubectl.run(side.kubeconfig(), "apply", "--validate=false", "-f",
                    TestingServers.manifest(twoContainerPod("web:2")).toString());

            // then
            assertThat(changed.exitCode()).as(side + ": " + changed.output()).isZero();
            JsonNode pod = JSON.valueToTree(side.client().pods().inNamespace("default").withName("two-containers").get());
            containers.put(side.name(), comparable(pod.path("spec").path("containers")));
        }
        JsonNode embedded = containers.get(servers.embedded().name());
        assertThat(embedded.size()).isEqualTo(2);
        assertThat(embedded.path(0).path("image").asText()).isEqualTo("web:2");
        assertThat(embedded.path(0).path("env").path(0).path("value").asText()).isEqualTo("on");
        assertThat(embedded.path(0).path("resources").path("limits").path("memory").asText()).isEqualTo("64Mi");
        assertThat(embedded.path(1).path("name").asText()).isEqualTo("sidecar");
        assertThat(embedded).isEqualTo(containers.get(TestingServers.real(real).name()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("patches")
    void aStrategicMergePatchLeavesTheDeploymentKubeApiServerLeaves(String description, String patch, Consumer<JsonNode> expectation,
            RealControlPlane real) {
        Map<String, JsonNode> results = new LinkedHashMap<>();
        String name = "smp-" + Integer.toHexString(description.hashCode());
        for (Side side : servers.both(real)) {
            // given
            side.client().resource(Serialization.unmarshal(deployment(name), GenericKubernetesResource.class)).create();

            // when
            GenericKubernetesResource patched = side.client().genericKubernetesResources("apps/v1", "Deployment").inNamespace("default")
                    .withName(name).patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);

            // then
            JsonNode object = JSON.valueToTree(patched);
            ObjectNodes comparable = new ObjectNodes(object.path("spec"), object.path("metadata").path("labels"),
                    object.path("metadata").path("finalizers"));
            results.put(side.name(), JSON.valueToTree(comparable));
        }
        JsonNode embedded = results.get(servers.embedded().name());
        expectation.accept(embedded);
        assertThat(embedded).as(description).isEqualTo(results.get(TestingServers.real(real).name()));
    }

    @Test
    void aPatchWithoutTheMergeKeyIsRefusedAsKubeApiServerRefusesItAndChangesNothing(RealControlPlane real) {
        List<String> answers = new ArrayList<>();
        for (Side side : servers.both(real)) {
            side.client().resource(Serialization.unmarshal(deployment("no-merge-key"), GenericKubernetesResource.class)).create();
            try {
                side.client().genericKubernetesResources("apps/v1", "Deployment").inNamespace("default").withName("no-merge-key")
                        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"image\":\"nameless:1\"}]}}}}");
                answers.add("accepted");
            } catch (KubernetesClientException e) {
                answers.add(e.getCode() + " " + e.getStatus().getReason());
            }
            GenericKubernetesResource stored = side.client().genericKubernetesResources("apps/v1", "Deployment").inNamespace("default")
                    .withName("no-merge-key").get();
            assertThat(JSON.valueToTree(stored).path("spec").path("template").path("spec").path("containers").toString())
                    .as(side.name()).doesNotContain("nameless");
        }
        assertThat(answers.get(0)).isNotEqualTo("accepted").isEqualTo(answers.get(1));
    }

    @Test
    void aStrategicMergePatchOfACustomResourceIsUnsupportedAsInKubeApiServer(RealControlPlane real) {
        List<String> answers = new ArrayList<>();
        for (Side side : servers.both(real)) {
            side.client().resource(Serialization.unmarshal("""
                    apiVersion: scheduling.volcano.sh/v1beta1
                    kind: PodGroup
                    metadata: {name: smp-podgroup, namespace: default}
                    spec: {minMember: 2}
                    """, GenericKubernetesResource.class)).create();
            try {
                side.client().genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup").inNamespace("default")
                        .withName("smp-podgroup").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"spec\":{\"minMember\":3}}");
                answers.add("accepted");
            } catch (KubernetesClientException e) {
                answers.add(e.getCode() + " " + e.getStatus().getReason());
            }
        }
        assertThat(answers).containsExactly("415 UnsupportedMediaType", "415 UnsupportedMediaType");
    }

    static Stream<Arguments> patches() {
        return Stream.of(
                Arguments.of("a container is merged by its name, the other kept", containers("{\"name\":\"a\",\"image\":\"a:2\"}"),
                        expect(spec -> assertThat(containerNames(spec)).containsExactly("a", "b"))),
                Arguments.of("a container of a new name goes before the others", containers(container("c")),
                        expect(spec -> assertThat(containerNames(spec)).containsExactly("c", "a", "b"))),
                Arguments.of("$patch: delete removes one container", containers("{\"name\":\"b\",\"$patch\":\"delete\"}"),
                        expect(spec -> assertThat(containerNames(spec)).containsExactly("a"))),
                Arguments.of("$patch: replace replaces the list", containers("{\"$patch\":\"replace\"}," + container("c")),
                        expect(spec -> assertThat(containerNames(spec)).containsExactly("c"))),
                Arguments.of("env is merged by name", containers("{\"name\":\"a\",\"env\":[{\"name\":\"A2\",\"value\":\"x\"},"
                        + "{\"name\":\"A3\",\"value\":\"y\"}]}"), expect(spec -> assertThat(spec.path("spec").path("template").path("spec")
                        .path("containers").path(0).path("env").size()).isEqualTo(3))),
                Arguments.of("ports are merged by containerPort", containers("{\"name\":\"a\",\"ports\":[{\"containerPort\":81,"
                        + "\"protocol\":\"TCP\"}]}"), expect(spec -> assertThat(spec.path("spec").path("template").path("spec")
                        .path("containers").path(0).path("ports").size()).isEqualTo(2))),
                Arguments.of("$setElementOrder orders the merged list", "{\"spec\":{\"template\":{\"spec\":{\"$setElementOrder/containers\":"
                        + "[{\"name\":\"b\"},{\"name\":\"a\"}],\"containers\":[{\"name\":\"a\",\"image\":\"a:3\"}]}}}}",
                        expect(spec -> assertThat(containerNames(spec)).containsExactly("b", "a"))),
                Arguments.of("a primitive list with the merge strategy is a union", "{\"metadata\":{\"finalizers\":[\"example.com/c\"]}}",
                        expect(spec -> assertThat(spec.path("finalizers").size()).isEqualTo(3))),
                Arguments.of("$deleteFromPrimitiveList removes values", "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":"
                        + "[\"example.com/a\"]}}", expect(spec -> assertThat(spec.path("finalizers").size()).isEqualTo(1))),
                Arguments.of("null removes a key", "{\"metadata\":{\"labels\":{\"tier\":null}}}",
                        expect(spec -> assertThat(spec.path("labels").has("tier")).isFalse())),
                Arguments.of("$patch: replace on a map replaces it", "{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":"
                        + "{\"$patch\":\"replace\",\"disk\":\"ssd\"}}}}}", expect(spec -> assertThat(spec.path("spec").path("template")
                        .path("spec").path("nodeSelector").size()).isEqualTo(1))),
                Arguments.of("$retainKeys drops a volume's other source", "{\"spec\":{\"template\":{\"spec\":{\"volumes\":[{\"name\":\"data\","
                        + "\"hostPath\":{\"path\":\"/h\",\"type\":\"\"},\"$retainKeys\":[\"name\",\"hostPath\"]}]}}}}",
                        expect(spec -> assertThat(spec.path("spec").path("template").path("spec").path("volumes").path(0).has("emptyDir"))
                                .isFalse())),
                Arguments.of("tolerations, an atomic list, are replaced", "{\"spec\":{\"template\":{\"spec\":{\"tolerations\":"
                        + "[{\"key\":\"k2\",\"operator\":\"Exists\"}]}}}}", expect(spec -> assertThat(spec.path("spec").path("template")
                        .path("spec").path("tolerations").size()).isEqualTo(1))));
    }

    /** What is compared of a patched Deployment. */
    record ObjectNodes(JsonNode spec, JsonNode labels, JsonNode finalizers) {}

    private static Consumer<JsonNode> expect(Consumer<JsonNode> expectation) {
        return expectation;
    }

    private static List<String> containerNames(JsonNode compared) {
        List<String> names = new ArrayList<>();
        compared.path("spec").path("template").path("spec").path("containers").forEach(container -> names.add(container.path("name").asText()));
        return names;
    }

    private static String containers(String items) {
        return "{\"spec\":{\"template\":{\"spec\":{\"containers\":[" + items + "]}}}}";
    }

    /** A container with every field kube-apiserver would default, so that both servers store the same. */
    private static String container(String name) {
        return "{\"name\":\"" + name + "\",\"image\":\"" + name + ":1\",\"imagePullPolicy\":\"IfNotPresent\",\"resources\":{},"
                + "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\"}";
    }

    /** Names, images, env and resources: what the apply must keep (kube-apiserver adds defaults the embedded server does not). */
    private static JsonNode comparable(JsonNode containers) {
        List<Map<String, JsonNode>> kept = new ArrayList<>();
        for (JsonNode container : containers) {
            Map<String, JsonNode> fields = new LinkedHashMap<>();
            for (String field : List.of("name", "image", "env")) {
                fields.put(field, container.path(field));
            }
            // kube-apiserver defaults a container's resources to {}; the embedded server leaves them out
            fields.put("resources", container.path("resources").isMissingNode() || container.path("resources").isNull()
                    ? JSON.createObjectNode() : container.path("resources"));
            kept.add(fields);
        }
        return JSON.valueToTree(kept);
    }

    private static String twoContainerPod(String image) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: two-containers, namespace: default}
                spec:
                  containers:
                  - name: web
                    image: %s
                    env: [{name: FEATURE, value: "on"}]
                    resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {memory: 64Mi}}
                  - name: sidecar
                    image: proxy:1
                """.formatted(image);
    }

    /** A Deployment with every default kube-apiserver sets written out, so both servers store the same object. */
    private static String deployment(String name) {
        String a = "{name: a, image: 'a:1', imagePullPolicy: IfNotPresent, resources: {limits: {cpu: '1'}}, "
                + "terminationMessagePath: /dev/termination-log, terminationMessagePolicy: File, "
                + "env: [{name: A1, value: '1'}, {name: A2, value: '2'}], ports: [{containerPort: 80, protocol: TCP}], "
                + "volumeMounts: [{name: data, mountPath: /data}]}";
        String b = "{name: b, image: 'b:1', imagePullPolicy: IfNotPresent, resources: {}, "
                + "terminationMessagePath: /dev/termination-log, terminationMessagePolicy: File}";
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %s
                  namespace: default
                  labels: {app: smp, tier: web}
                  finalizers: [example.com/a, example.com/b]
                spec:
                  replicas: 1
                  progressDeadlineSeconds: 600
                  revisionHistoryLimit: 10
                  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%%, maxUnavailable: 25%%}}
                  selector: {matchLabels: {app: smp}}
                  template:
                    metadata: {labels: {app: smp}}
                    spec:
                      containers: [%s, %s]
                      volumes: [{name: data, emptyDir: {}}, {name: cache, emptyDir: {}}]
                      nodeSelector: {zone: a, arch: amd64}
                      tolerations: [{key: k1, operator: Exists}]
                      dnsPolicy: ClusterFirst
                      restartPolicy: Always
                      schedulerName: default-scheduler
                      securityContext: {}
                      terminationGracePeriodSeconds: 30
                """.formatted(name, a, b);
    }
}
