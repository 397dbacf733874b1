package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Deployment, a ReplicaSet and a StatefulSet created with nothing but their selector and template get the same
 * defaults on the embedded server as on a real kube-apiserver: replicas, the rolling-update strategy,
 * the revision history limit, the progress deadline, and the pod template's spec defaults. Containers'
 * own defaults are not compared (not filled in yet: DIFFERENCES 2). A name made from {@code
 * generateName} looks the same on both.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class WorkloadDefaultsRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> MANIFESTS = List.of("""
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: default}
            spec:
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec: {containers: [{name: main, image: "nginx:1"}]}
            """, """
            ---
            apiVersion: apps/v1
            kind: ReplicaSet
            metadata: {name: workers, namespace: default}
            spec:
              selector: {matchLabels: {app: workers}}
              template:
                metadata: {labels: {app: workers}}
                spec: {containers: [{name: main, image: "busybox:1"}]}
            """, """
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: db, namespace: default}
            spec:
              serviceName: db
              selector: {matchLabels: {app: db}}
              template:
                metadata: {labels: {app: db}}
                spec: {containers: [{name: main, image: "postgres:17"}]}
            """);

    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void aDeploymentAndAReplicaSetGetKubeApiServersDefaults(RealControlPlane real) {
        Map<String, List<JsonNode>> specs = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            specs.put(side.name(), MANIFESTS.stream().map(manifest -> spec(side, manifest)).toList());
        }

        List<JsonNode> kubeApiServer = specs.get(TestingServers.real(real).name());
        assertThat(specs.get(servers.embedded().name())).isEqualTo(kubeApiServer);
        // the real server's answer, so the comparison cannot pass with neither side defaulting
        assertThat(kubeApiServer.get(0).path("strategy").path("type").asText()).isEqualTo("RollingUpdate");
        assertThat(kubeApiServer.get(1).path("replicas").asInt()).isEqualTo(1);
    }

    /**
     * A Job with template labels and one without: the same defaults, the same generated selector and
     * template labels (with each side's uid in them) and the same labels of the Job itself, and an empty
     * status. The one without labels is made from {@code generateName}, so its job-name labels are the
     * name made.
     */
    @Test
    void aJobGetsKubeApiServersDefaultsSelectorAndLabels(RealControlPlane real) {
        List<String> jobs = List.of("""
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: pi, namespace: default}
                spec:
                  template:
                    metadata: {labels: {app: pi}}
                    spec: {restartPolicy: Never, containers: [{name: main, image: "perl:5"}]}
                """, """
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {generateName: sweep-, namespace: default}
                spec:
                  completions: 3
                  podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [42]}}]}
                  template:
                    spec: {restartPolicy: Never, containers: [{name: main, image: "busybox:1"}]}
                """);
        Map<String, List<JsonNode>> created = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            created.put(side.name(), jobs.stream().map(manifest -> job(side, manifest)).toList());
        }

        List<JsonNode> kubeApiServer = created.get(TestingServers.real(real).name());
        assertThat(created.get(servers.embedded().name())).isEqualTo(kubeApiServer);
        // the real server's answer, so the comparison cannot pass with neither side defaulting
        assertThat(kubeApiServer.get(0).path("spec").path("selector").path("matchLabels").path("batch.kubernetes.io/controller-uid")
                .asText()).isEqualTo("UID");
        assertThat(kubeApiServer.get(1).path("spec").path("podReplacementPolicy").asText()).isEqualTo("Failed");
    }

    /**
     * kubectl's wide tables of a Job, a Deployment, a ReplicaSet and a StatefulSet that no controller has
     * run yet are the same on both, but for the Job's uid and the ages.
     */
    @Test
    void kubectlPrintsWorkloadsAsOnKubeApiServer(RealControlPlane real) throws InterruptedException {
        String template = """
                  template:
                    metadata: {labels: {app: shown}}
                    spec:
                      restartPolicy: OnFailure
                      containers: [{name: main, image: "perl:5"}, {name: side, image: "busybox:1"}]
                """;
        String selector = "  selector: {matchLabels: {app: shown}, matchExpressions: [{key: tier, operator: NotIn, values: [z, y]}]}\n";
        List<String> manifests = List.of(
                "kind: Job\napiVersion: batch/v1\nmetadata: {name: shown, namespace: default}\nspec:\n  parallelism: 3\n" + template,
                "kind: Deployment\napiVersion: apps/v1\nmetadata: {name: shown, namespace: default}\nspec:\n  replicas: 2\n" + selector
                        + template.replace("OnFailure", "Always"),
                "kind: ReplicaSet\napiVersion: apps/v1\nmetadata: {name: shown, namespace: default}\nspec:\n" + selector
                        + template.replace("OnFailure", "Always"),
                "kind: StatefulSet\napiVersion: apps/v1\nmetadata: {name: shown, namespace: default}\nspec:\n  serviceName: shown\n"
                        + selector + template.replace("OnFailure", "Always"),
                "kind: CronJob\napiVersion: batch/v1\nmetadata: {name: shown, namespace: default}\nspec:\n  schedule: '*/5 * * * *'\n"
                        + "  timeZone: Etc/UTC\n  jobTemplate:\n    spec:\n" + template.indent(4));
        Map<String, String> tables = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            String uid = "";
            for (String manifest : manifests) {
                GenericKubernetesResource created = side.client().resource(Serialization.unmarshal(manifest, GenericKubernetesResource.class))
                        .create();
                uid = created.getKind().equals("Job") ? created.getMetadata().getUid() : uid;
            }
            TestingKubectl.Result table = TestingKubectl.run(side.kubeconfig(), "get", "job,deployment,replicaset,statefulset,cronjob", "-n",
                    "default", "-o", "wide");
            assertThat(table.exitCode()).as(table.output()).isZero();
            tables.put(side.name(), table.output().replace(uid, "UID").replaceAll("\\b\\d+s\\b", "AGE"));
        }

        String kubeApiServer = tables.get(TestingServers.real(real).name());
        assertThat(tables.get(servers.embedded().name())).isEqualTo(kubeApiServer);
        assertThat(kubeApiServer).contains("Running", "0/1 of 3", "main,side", "perl:5,busybox:1", "batch.kubernetes.io/controller-uid=UID",
                "app=shown,tier notin (y,z)", "0/2", "UP-TO-DATE", "DESIRED", "*/5 * * * *", "Etc/UTC");
    }

    /** A CronJob gets SetDefaults_CronJob, its job template's pod spec the pod defaults, and an empty status. */
    @Test
    void aCronJobGetsKubeApiServersDefaults(RealControlPlane real) {
        Map<String, JsonNode> created = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            GenericKubernetesResource cronJob = side.client().resource(Serialization.unmarshal("""
                    ---
                    apiVersion: batch/v1
                    kind: CronJob
                    metadata: {name: nightly, namespace: default}
                    spec:
                      schedule: "0 3 * * *"
                      jobTemplate:
                        spec:
                          template:
                            spec: {restartPolicy: Never, containers: [{name: main, image: "busybox:1"}]}
                    """, GenericKubernetesResource.class)).create();
            ObjectNode kept = JSON.createObjectNode();
            kept.set("spec", JSON.valueToTree(cronJob).path("spec"));
            kept.set("status", JSON.valueToTree(cronJob).path("status"));
            created.put(side.name(), kept);
        }

        JsonNode kubeApiServer = created.get(TestingServers.real(real).name());
        assertThat(created.get(servers.embedded().name())).isEqualTo(kubeApiServer);
        // the real server's answer, so the comparison cannot pass with neither side defaulting
        assertThat(kubeApiServer.path("spec").path("concurrencyPolicy").asText()).isEqualTo("Allow");
    }

    @Test
    void aNameMadeFromGenerateNameIsThePrefixAndFiveCharactersAsKubeApiServerMakesIt(RealControlPlane real) {
        for (Side side : servers.both(real)) {
            String prefix = "web-789576cd9-";
            GenericKubernetesResource created = side.client().resource(Serialization.unmarshal("""
                    ---
                    apiVersion: v1
                    kind: ConfigMap
                    metadata: {generateName: web-789576cd9-, namespace: default}
                    """, GenericKubernetesResource.class)).create();

            assertThat(created.getMetadata().getName()).as(side.name()).matches(prefix + "[bcdfghjklmnpqrstvwxz2456789]{5}");
        }
    }

    /**
     * The created Job's labels, spec (without containers) and status, its uid written {@code UID} and its
     * generated name {@code NAME} wherever they occur.
     */
    private static JsonNode job(Side side, String manifest) {
        GenericKubernetesResource created = side.client().resource(Serialization.unmarshal(manifest, GenericKubernetesResource.class)).create();
        ObjectNode job = JSON.createObjectNode();
        job.set("labels", JSON.valueToTree(created.getMetadata().getLabels()));
        job.set("spec", JSON.valueToTree(created).path("spec"));
        job.set("status", JSON.valueToTree(created).path("status"));
        ((ObjectNode) job.path("spec").path("template").path("spec")).remove("containers");
        String text = job.toString().replace(created.getMetadata().getUid(), "UID").replace(created.getMetadata().getName(), "NAME");
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The created object's spec as the server stored it, without its containers. */
    private static JsonNode spec(Side side, String manifest) {
        GenericKubernetesResource created = side.client().resource(Serialization.unmarshal(manifest, GenericKubernetesResource.class)).create();
        ObjectNode spec = (ObjectNode) JSON.valueToTree(created).path("spec");
        ((ObjectNode) spec.path("template").path("spec")).remove("containers");
        return spec;
    }
}
