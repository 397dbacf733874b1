package dev.muster.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static dev.muster.cli.TestingKubectl.kubectl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/} against a real kube-apiserver: {@code kubectl apply} with validation on, then
 * {@code muster run} with exactly its RBAC, through a token of its ServiceAccount: nothing it does is
 * refused, and what it does not need is.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "8", nodeMemory = "32Gi")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DeployRbacRealApiServerTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    @Test
    void musterRunsWithDeploysRbacAndIsRefusedWhatItDoesNotNeed(RealControlPlane controlPlane, KubernetesClient admin) throws Exception {
        // given: deploy/ applied as a platform engineer applies it, validation on
        String applied = kubectl(controlPlane.kubeconfig(), "apply", "-f", Path.of("..", "deploy").toString());
        assertThat(applied).contains("namespace/muster-system created", "clusterrole.rbac.authorization.k8s.io/muster-scheduler created",
                "deployment.apps/muster-scheduler created");
        Path kubeconfig = serviceAccountKubeconfig(controlPlane, admin);
        // every request the runtime's code makes (binding/, informers/, leader/), asked of the real authorizer
        for (String request : List.of("list pods", "watch pods", "list nodes", "watch nodes", "list scheduling.k8s.io/priorityclasses",
                "list topology.volcano.sh/hypernodes", "list scheduling.x-k8s.io/podgroups", "list scheduling.k8s.io/podgroups", "watch scheduling.k8s.io/podgroups", "watch scheduling.volcano.sh/podgroups",
                "create pods/binding", "create pods/eviction", "patch pods", "delete pods", "patch pods/status",
                "create scheduling.volcano.sh/podgroups", "patch scheduling.volcano.sh/podgroups", "create scheduling.volcano.sh/queues",
                "watch scheduling.volcano.sh/queues", "patch scheduling.volcano.sh/queues/status", "create events")) {
            assertThat(allowed(admin, request, "default")).as("deploy/'s RBAC allows: %s", request).isTrue();
        }
        for (String request : List.of("get coordination.k8s.io/leases", "create coordination.k8s.io/leases",
                "update coordination.k8s.io/leases")) {
            assertThat(allowed(admin, request, "muster-system")).as("deploy/'s RBAC allows in muster-system: %s", request).isTrue();
        }
        // the job history's ConfigMap (kubernetes-runtime's history/): read and written by name, created once
        for (String request : List.of("get configmaps muster-job-history", "update configmaps muster-job-history", "create configmaps")) {
            assertThat(allowed(admin, request, "muster-system")).as("deploy/'s RBAC allows in muster-system: %s", request).isTrue();
        }

        // when: muster run as the ServiceAccount, leading on the Lease of its namespace as deployed
        try (RunProcess run = RunProcess.start(kubeconfig, directory.resolve("run.log"), "--leader-elect", "--lease-namespace",
                "muster-system", "--lease-duration", "4s", "--renew-deadline", "3s", "--retry-period", "500ms")) {
            Gangs.create(admin, Gangs.gang("rbac", 2, "cpu: '1'", "") + "---\n" + Gangs.gang("toobig", 1, "cpu: '64'", ""));

            // then: it creates the default queue, binds, writes statuses and events, renews its Lease, and is refused nothing
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(admin.pods().inNamespace("default").list().getItems())
                        .filteredOn(pod -> pod.getMetadata().getName().startsWith("rbac-"))
                        .allMatch(pod -> pod.getSpec().getNodeName() != null)
                        .hasSize(2);
                assertThat(phase(admin, "rbac")).isEqualTo("Running");
                assertThat(phase(admin, "toobig")).isIn("Pending", "Inqueue");
                assertThat(admin.v1().events().inNamespace("default").list().getItems())
                        .anyMatch(event -> event.getInvolvedObject().getName().equals("toobig") && event.getReason().equals("Unschedulable"));
                assertThat(admin.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "Queue").withName("default").get()).isNotNull();
                assertThat(admin.leases().inNamespace("muster-system").withName("muster-scheduler").get()).isNotNull();
            });
            assertThat(run.log()).doesNotContain("forbidden", "Forbidden", "HTTP 403");
        }

        // and: the ServiceAccount is refused what Muster does not do
        try (KubernetesClient muster = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig.toFile())).build()) {
            List<ThrowingConsumer<KubernetesClient>> needless = new ArrayList<>();
            needless.add(client -> client.secrets().inNamespace("muster-system").list());
            needless.add(client -> client.nodes().withName("node-0").delete());
            needless.add(client -> client.pods().inNamespace("default").resource(new PodBuilder()
                    .withNewMetadata().withName("intruder").endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec().build()).create());
            needless.add(client -> client.leases().inNamespace("default").list());
            needless.add(client -> client.configMaps().inNamespace("muster-system").withName("muster-scheduler-config").get());
            needless.add(client -> client.configMaps().inNamespace("default").withName("muster-job-history").get());
            needless.add(client -> client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup").inNamespace("default")
                    .withName("rbac").delete());
            needless.add(client -> client.genericKubernetesResources("batch.volcano.sh/v1alpha1", "Job").inNamespace("default").list());
            for (ThrowingConsumer<KubernetesClient> call : needless) {
                assertThatThrownBy(() -> call.accept(muster))
                        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
            }
        }
    }

    /** A kubeconfig for the ServiceAccount muster-system/muster-scheduler, with a token from the TokenRequest API. */
    private Path serviceAccountKubeconfig(RealControlPlane controlPlane, KubernetesClient admin) throws IOException {
        String token = admin.serviceAccounts().inNamespace("muster-system").withName("muster-scheduler")
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
        String text = Files.readString(controlPlane.kubeconfig(), UTF_8).replaceAll("(?m)^(\\s*token: ).*$", "$1" + token);
        assertThat(text).contains(token);
        return Files.writeString(directory.resolve("muster-scheduler.kubeconfig"), text, UTF_8);
    }

    /** Asks the API server's authorizer whether the ServiceAccount may do "VERB [GROUP/]RESOURCE[/SUBRESOURCE] [NAME]". */
    private static boolean allowed(KubernetesClient admin, String request, String namespace) {
        String verb = request.substring(0, request.indexOf(' '));
        List<String> words = List.of(request.substring(verb.length() + 1).split(" "));
        String name = words.size() > 1 ? words.get(1) : "";
        List<String> parts = List.of(words.get(0).split("/"));
        boolean grouped = parts.get(0).contains(".");
        String group = grouped ? parts.get(0) : "";
        String resource = parts.get(grouped ? 1 : 0);
        String subresource = parts.size() > (grouped ? 2 : 1) ? parts.get(parts.size() - 1) : "";
        return admin.authorization().v1().subjectAccessReview().create(new SubjectAccessReviewBuilder().withNewSpec()
                .withUser("system:serviceaccount:muster-system:muster-scheduler")
                .withGroups("system:serviceaccounts", "system:serviceaccounts:muster-system", "system:authenticated")
                .withNewResourceAttributes().withVerb(verb).withGroup(group).withResource(resource).withSubresource(subresource)
                .withNamespace(namespace).withName(name).endResourceAttributes()
                .endSpec().build()).getStatus().getAllowed();
    }

    private static String phase(KubernetesClient client, String podGroup) {
        GenericKubernetesResource stored = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace("default").withName(podGroup).get();
        Object status = stored == null ? null : stored.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map && map.get("phase") != null ? map.get("phase").toString() : "";
    }
}
