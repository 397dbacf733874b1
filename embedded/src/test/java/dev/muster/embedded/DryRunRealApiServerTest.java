package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code dryRun=All} on every write, side by side with a real kube-apiserver: each write is checked
 * and answered as it would be, and nothing is stored (kubectl's {@code --dry-run=server} and
 * {@code kubectl diff} send it).
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DryRunRealApiServerTest {
    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void kubectlDryRunServerOfCreateLabelPatchApplyAndDeleteChangesNothing(RealControlPlane real) throws InterruptedException {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            // given: a ConfigMap that exists
            side.client().configMaps().inNamespace("default").resource(configMap("kept", "1")).create();
            List<String> steps = new ArrayList<>();

            // when: every kind of write, dry
            steps.add(kubectl(side, "create", "configmap", "dry", "--from-literal=a=1", "--dry-run=server"));
            steps.add(kubectl(side, "label", "configmap", "kept", "tier=web", "--dry-run=server"));
            steps.add(kubectl(side, "patch", "configmap", "kept", "--type=merge", "-p", "{\"data\":{\"a\":\"2\"}}", "--dry-run=server"));
            steps.add(kubectl(side, "apply", "--server-side", "--force-conflicts", "--dry-run=server", "--validate=false", "-f",
                    TestingServers.manifest("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kept}\ndata: {a: '3'}\n").toString()));
            steps.add(kubectl(side, "delete", "configmap", "kept", "--dry-run=server"));
            steps.add(kubectl(side, "create", "configmap", "kept", "--from-literal=a=1", "--dry-run=server"));

            // then: what kubectl printed is the same on both, and the store holds what it held
            ConfigMap kept = side.client().configMaps().inNamespace("default").withName("kept").get();
            steps.add("kept: " + (kept == null ? "gone" : kept.getData() + " tier=" + kept.getMetadata().getLabels().get("tier")));
            steps.add("dry: " + (side.client().configMaps().inNamespace("default").withName("dry").get() == null ? "absent" : "stored"));
            observed.put(side.name(), steps);
        }
        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded).contains("kept: {a=1} tier=null", "dry: absent");
        assertThat(embedded.get(5)).contains("already exists");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    @Test
    void aDryRunValueOtherThanAllIsRefusedAndNothingIsStored() throws Exception {
        // given
        HttpClient http = servers.http();
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"refused\"}}";

        // when
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(servers.url() + "/api/v1/namespaces/default/configmaps?dryRun=Some"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());

        // then
        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.body()).contains("BadRequest").contains("Some");
        assertThat(servers.embedded().client().configMaps().inNamespace("default").withName("refused").get()).isNull();
    }

    private static String kubectl(Side side, String... arguments) throws InterruptedException {
        TestingKubectl.Result result = TestingKubectl.run(side.kubeconfig(), arguments);
        return result.exitCode() + " " + result.output();
    }

    private static ConfigMap configMap(String name, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata().addToData("a", value).build();
    }
}
