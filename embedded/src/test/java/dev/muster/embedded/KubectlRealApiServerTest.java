package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a kubectl user does day to day, side by side with a real kube-apiserver: apply to create and to
 * update (validation on), label, a patch of each type, set-based label selectors, field selectors, a
 * delete by selector, {@code get -w} printing each change (an object that comes to match the selector
 * by a label, a patch, a delete), and {@code wait} for a field and for a delete.
 * What kubectl prints must be the same on both servers, step by step.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KubectlRealApiServerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String SETTINGS = """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: settings, labels: {app: shop, tier: web}}
            data: {size: "1", colour: blue}
            """;

    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void applyLabelPatchSelectAndDeleteBySelectorPrintTheSame(RealControlPlane real) throws InterruptedException {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            List<String> steps = new ArrayList<>();
            steps.add(kubectl(side, "apply", "-f", TestingServers.manifest(SETTINGS).toString()));
            steps.add(kubectl(side, "apply", "-f", TestingServers.manifest(SETTINGS.replace("size: \"1\"", "size: \"2\"")).toString()));
            steps.add(kubectl(side, "create", "configmap", "cache", "--from-literal=size=3"));
            steps.add(kubectl(side, "label", "configmap", "cache", "app=shop", "tier=db"));
            steps.add(kubectl(side, "label", "configmap", "cache", "tier=web"));
            steps.add(kubectl(side, "patch", "configmap", "settings", "-p", "{\"data\":{\"colour\":\"red\"}}"));
            steps.add(kubectl(side, "patch", "configmap", "settings", "--type=merge", "-p", "{\"data\":{\"colour\":null}}"));
            steps.add(kubectl(side, "patch", "configmap", "settings", "--type=json", "-p",
                    "[{\"op\":\"add\",\"path\":\"/data/shape\",\"value\":\"round\"}]"));
            steps.add(kubectl(side, "patch", "configmap", "settings", "--type=json", "-p",
                    "[{\"op\":\"test\",\"path\":\"/data/size\",\"value\":\"9\"}]"));
            steps.add(kubectl(side, "get", "configmap", "settings", "-o", "jsonpath={.data}"));
            steps.add(kubectl(side, "get", "configmaps", "-l", "tier in (web,db),app=shop", "-o", "name"));
            steps.add(kubectl(side, "get", "configmaps", "-l", "tier notin (db),app", "-o", "name"));
            steps.add(kubectl(side, "get", "configmaps", "-l", "tier in (web", "-o", "name"));
            steps.add(kubectl(side, "get", "configmaps", "--field-selector", "metadata.name!=settings", "-l", "app", "-o", "name"));
            steps.add(kubectl(side, "get", "configmaps", "--field-selector", "data.size=2", "-o", "name"));
            steps.add(kubectl(side, "delete", "configmaps", "-l", "app in (nothing)"));
            steps.add(kubectl(side, "delete", "configmaps", "-l", "app=shop,tier!=db"));
            steps.add(kubectl(side, "get", "configmaps", "-l", "app", "-o", "name"));
            observed.put(side.name(), steps);
        }

        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded.get(1)).isEqualTo("0 configmap/settings configured");
        assertThat(embedded.get(10)).isEqualTo("0 configmap/cache\nconfigmap/settings");
        assertThat(embedded.get(8)).isEqualTo("1 The request is invalid: the server rejected our request due to an error in our request");
        assertThat(embedded.get(16)).isEqualTo("0 configmap \"settings\" deleted");
        assertThat(embedded.get(17)).as("cache kept tier=db: its relabel without --overwrite was refused").isEqualTo("0 configmap/cache");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    @Test
    void getWatchAndWaitSeeTheSameEvents(RealControlPlane real) throws InterruptedException {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            List<String> steps = new ArrayList<>();
            try (TestingKubectl watch = TestingKubectl.start(side.kubeconfig(), "get", "configmaps", "-l", "app=watched", "--watch",
                    "-o", "custom-columns=NAME:.metadata.name,SIZE:.data.size")) {
                // made without the label, then labelled: whether kubectl lists before or after, it prints w1 as ADDED once
                kubectl(side, "create", "configmap", "w1", "--from-literal=size=1");
                kubectl(side, "label", "configmap", "w1", "app=watched");
                await().atMost(WAIT).until(() -> rows(watch, "w1 1") == 1);

                try (TestingKubectl waitForSize = TestingKubectl.start(side.kubeconfig(), "wait", "configmap/w1",
                        "--for=jsonpath={.data.size}=2", "--timeout=60s")) {
                    kubectl(side, "patch", "configmap", "w1", "--type=merge", "-p", "{\"data\":{\"size\":\"2\"}}");
                    TestingKubectl.Result result = waitForSize.waitFor();
                    steps.add("wait for a field: " + result.exitCode() + " " + result.output());
                }
                try (TestingKubectl waitForDelete = TestingKubectl.start(side.kubeconfig(), "wait", "configmap/w1", "--for=delete",
                        "--timeout=60s")) {
                    await().atMost(WAIT).until(() -> rows(watch, "w1 2") == 1);
                    kubectl(side, "delete", "configmap", "w1");
                    TestingKubectl.Result result = waitForDelete.waitFor();
                    steps.add("wait for a delete: " + result.exitCode() + " " + result.output());
                }
                // custom columns print no event type (--output-watch-events only adds one to the server's tables): the
                // delete is the row of the object's last state, again
                await().atMost(WAIT).until(() -> rows(watch, "w1 2") == 2);
                steps.addAll(watch.output().stream().map(line -> line.replaceAll("\\s+", " ")).toList());
                steps.add("watching: " + watch.isAlive());
            }
            observed.put(side.name(), steps);
        }

        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded).containsExactly("wait for a field: 0 configmap/w1 condition met",
                "wait for a delete: 0 configmap/w1 condition met", "NAME SIZE", "w1 1", "w1 2", "w1 2", "watching: true");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    /** How many rows the watching kubectl printed that read ROW, its columns' spacing aside. */
    private static long rows(TestingKubectl watch, String row) {
        return watch.output().stream().filter(line -> line.replaceAll("\\s+", " ").equals(row)).count();
    }

    private static String kubectl(Side side, String... arguments) throws InterruptedException {
        TestingKubectl.Result result = TestingKubectl.run(side.kubeconfig(), arguments);
        return result.exitCode() + " " + result.output();
    }
}
