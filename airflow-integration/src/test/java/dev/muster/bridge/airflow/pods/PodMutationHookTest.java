package dev.muster.bridge.airflow.pods;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import dev.muster.peers.InstalledPeer;
import dev.muster.peers.PeerInstaller;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The repository's {@code airflow_local_settings.py}, loaded by the real Airflow 3.3.2 as its local
 * settings ({@code airflow.settings.pod_mutation_hook}), applied to pods labelled as
 * KubernetesPodOperator labels them.
 */
class PodMutationHookTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCRIPT = """
            import json, sys
            from kubernetes.client import models as k8s
            from airflow import settings
            out = {}
            for case in json.load(sys.stdin):
                pod = k8s.V1Pod(
                    metadata=k8s.V1ObjectMeta(name=case["name"], labels=case["labels"], annotations=case["annotations"]),
                    spec=k8s.V1PodSpec(containers=[k8s.V1Container(name="base", image="busybox:1.36")],
                                       scheduler_name=case.get("scheduler")))
                settings.pod_mutation_hook(pod)
                out[case["name"]] = {"scheduler": pod.spec.scheduler_name, "annotations": pod.metadata.annotations or {}}
            print(json.dumps(out))
            """;

    private static Map<String, Object> pod(String name, Map<String, String> labels, Map<String, String> annotations) {
        return Map.of("name", name, "labels", labels, "annotations", annotations);
    }

    @Test
    void airflowLoadsTheHookAndItSetsSchedulerAndGroup() throws Exception {
        InstalledPeer airflow = PeerInstaller.locate().install(List.of("airflow")).get("airflow");
        Path python = airflow.executable().getParent().getParent()
                .resolve(".venv-" + airflow.name() + "-" + airflow.version()).resolve("bin/python3");
        Map<String, String> single = Map.of("dag_id", "muster_diamond", "task_id", "extract", "run_id",
                SafeLabelValue.of("manual__2026-12-01T22:56:58.266131+00:00"), "try_number", "1", "kubernetes_pod_operator", "True");
        Map<String, String> shard = Map.of("dag_id", "muster_diamond", "task_id", "train", "run_id", single.get("run_id"),
                "try_number", "2", "map_index", "1", "kubernetes_pod_operator", "True");
        List<Map<String, Object>> cases = List.of(
                pod("extract", single, Map.of("muster.dev/duration", "4s")),
                pod("train-1", shard, Map.of("muster.dev/gang", "true")),
                pod("train-1-alone", shard, Map.of()),
                pod("not-airflows", Map.of("app", "web"), Map.of()));
        Path home = Files.createTempDirectory("muster-airflow-hook-");
        ProcessBuilder builder = new ProcessBuilder(python.toString(), "-c", SCRIPT);
        builder.environment().put("PYTHONPATH", Path.of("src/main/python").toAbsolutePath().toString());
        builder.environment().put("AIRFLOW_HOME", home.toString());
        builder.environment().put("AIRFLOW__CORE__LOAD_EXAMPLES", "False");
        String output;
        String errors;
        Process process = builder.start();
        try {
            process.getOutputStream().write(JSON.writeValueAsBytes(cases));
            process.getOutputStream().close();
            output = new String(process.getInputStream().readAllBytes(), UTF_8);
            errors = new String(process.getErrorStream().readAllBytes(), UTF_8);
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        } finally {
            process.destroyForcibly();
            MoreFiles.deleteRecursively(home, RecursiveDeleteOption.ALLOW_INSECURE);
        }
        assertThat(process.exitValue()).as("python's stderr: %s", errors).isZero();
        JsonNode result = JSON.readTree(output.lines().reduce((first, last) -> last).orElseThrow());

        // nothing but Airflow's own settings.pod_mutation_hook, which runs the local settings' hook, touched the pods
        assertThat(result.at("/extract/scheduler").asText()).isEqualTo("muster");
        assertThat(result.at("/extract/annotations/scheduling.k8s.io~1group-name").asText())
                .isEqualTo(AirflowGroupName.of(AirflowPodIdentity.fromLabels("extract", single).orElseThrow(), false));
        assertThat(result.at("/extract/annotations/muster.dev~1duration").asText()).isEqualTo("4s");
        AirflowPodIdentity train = AirflowPodIdentity.fromLabels("train-1", shard).orElseThrow();
        assertThat(result.at("/train-1/annotations/scheduling.k8s.io~1group-name").asText()).isEqualTo(AirflowGroupName.of(train, true));
        assertThat(result.at("/train-1-alone/annotations/scheduling.k8s.io~1group-name").asText())
                .isEqualTo(AirflowGroupName.of(train, false))
                .isNotEqualTo(AirflowGroupName.of(train, true));
        assertThat(result.at("/not-airflows/scheduler").isNull()).isTrue();
        assertThat(result.at("/not-airflows/annotations").isEmpty()).isTrue();
    }
}
