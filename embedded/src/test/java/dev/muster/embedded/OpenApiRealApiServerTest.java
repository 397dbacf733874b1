package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OpenAPI documents, side by side with a real kube-apiserver: {@code kubectl apply} validates
 * without {@code --validate=false}, and {@code kubectl explain} prints the same for a built-in type and
 * for a registered CRD, from the v3 documents and from the v2 one as protobuf.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class OpenApiRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void kubectlApplyValidatesAgainstTheServersDocuments(RealControlPlane real) throws InterruptedException {
        for (Side side : servers.both(real)) {
            // when
            TestingKubectl.Result applied = TestingKubectl.run(side.kubeconfig(), "apply", "-f", TestingServers.manifest("""
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: validated, namespace: default}
                    spec: {containers: [{name: main, image: "busybox:1"}]}
                    """).toString());

            // then
            assertThat(applied.exitCode()).as(side + ": " + applied.output()).isZero();
            assertThat(applied.output()).as(side.name()).contains("pod/validated created");
        }
    }

    @Test
    void kubectlApplyOfAFieldTheSchemaDoesNotDeclareIsRefusedAsKubeApiServerRefusesIt(RealControlPlane real) throws InterruptedException {
        // given: a typo in a container's field, and one in a PodGroup's spec
        String manifest = TestingServers.manifest("""
                apiVersion: v1
                kind: Pod
                metadata: {name: misspelt, namespace: default}
                spec: {containers: [{name: main, imagee: "busybox:1"}]}
                ---
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: misspelt, namespace: default}
                spec: {minMember: 1, minMembers: 2}
                """).toString();
        Map<String, String> answers = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            // when
            TestingKubectl.Result applied = TestingKubectl.run(side.kubeconfig(), "apply", "-f", manifest);

            // then
            answers.put(side.name(), applied.exitCode() + " " + applied.output());
            assertThat(side.client().pods().inNamespace("default").withName("misspelt").get()).as(side.name()).isNull();
        }
        String embedded = answers.get(servers.embedded().name());
        assertThat(embedded).startsWith("1 ").contains("strict decoding error: unknown field \"spec.containers[0].imagee\"");
        assertThat(embedded).isEqualTo(answers.get(TestingServers.real(real).name()));
    }

    @Test
    void kubectlExplainPrintsTheSameForABuiltInFieldAndACustomResourcesField(RealControlPlane real) throws InterruptedException {
        Map<String, String> explained = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            TestingKubectl.Result builtIn = TestingKubectl.run(side.kubeconfig(), "explain", "pod.spec.containers.image");
            TestingKubectl.Result custom = TestingKubectl.run(side.kubeconfig(), "explain", "podgroups.spec.minMember");
            assertThat(builtIn.exitCode()).as(side + ": " + builtIn.output()).isZero();
            assertThat(custom.exitCode()).as(side + ": " + custom.output()).isZero();
            explained.put(side.name(), builtIn.output() + "\n---\n" + custom.output());
        }
        String embedded = explained.get(servers.embedded().name());
        assertThat(embedded).contains("KIND:       Pod").contains("FIELD: image <string>").contains("KIND:       PodGroup");
        assertThat(embedded).isEqualTo(explained.get(TestingServers.real(real).name()));
    }

    @Test
    void kubectlExplainFromTheProtobufV2DocumentPrintsTheSameForABuiltInAndACustomKind(RealControlPlane real) throws InterruptedException {
        Map<String, String> explained = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            // when: kubectl reads /openapi/v2 as client-go's discovery asks for it, gnostic's protobuf Document
            TestingKubectl.Result builtIn = TestingKubectl.run(side.kubeconfig(), "explain", "pods.spec", "--output=plaintext-openapiv2");
            TestingKubectl.Result custom = TestingKubectl.run(side.kubeconfig(), "explain", "podgroups.spec", "--output=plaintext-openapiv2");

            // then
            assertThat(builtIn.exitCode()).as(side + ": " + builtIn.output()).isZero();
            assertThat(custom.exitCode()).as(side + ": " + custom.output()).isZero();
            explained.put(side.name(), builtIn.output() + "\n---\n" + custom.output());
        }
        String embedded = explained.get(servers.embedded().name());
        assertThat(embedded).contains("KIND:     Pod").contains("RESOURCE: spec <Object>").contains("KIND:     PodGroup");
        assertThat(embedded).isEqualTo(explained.get(TestingServers.real(real).name()));
    }

    @Test
    void openApiV2HoldsTheDefinitionsOfEachServedCustomResourceAsKubeApiServerDoes(RealControlPlane real) throws Exception {
        Map<String, Map<String, JsonNode>> definitions = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            // when: a client that reads v2 (the Python client's generator, fabric8's, kubectl before 1.27) reads the document
            JsonNode document = JSON.readTree(side.client().raw("/openapi/v2"));

            // then: each custom kind and its list are there, as kube-apiserver converts the CRD's schema to v2
            Map<String, JsonNode> custom = new TreeMap<>();
            document.path("definitions").properties().forEach(definition -> {
                // Volcano's CRDs, which both servers serve
                if (definition.getKey().startsWith("sh.volcano.")) {
                    custom.put(definition.getKey(), definition.getValue());
                }
            });
            definitions.put(side.name(), custom);
        }
        // JSON objects compare field by field, in any order
        Map<String, JsonNode> embedded = definitions.get(servers.embedded().name());
        assertThat(embedded).containsKeys("sh.volcano.scheduling.v1beta1.PodGroup", "sh.volcano.scheduling.v1beta1.PodGroupList");
        assertThat(embedded).isEqualTo(definitions.get(TestingServers.real(real).name()));
    }
}
