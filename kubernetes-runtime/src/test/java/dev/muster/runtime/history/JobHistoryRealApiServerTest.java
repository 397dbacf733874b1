package dev.muster.runtime.history;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.inject.Injector;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.JobHistory;
import dev.muster.engine.model.JobId;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import dev.muster.runtime.KubernetesRuntime;
import dev.muster.runtime.RuntimeOptions;
import dev.muster.runtime.TestingRuntime;
import dev.muster.runtime.kubernetes.ClusterObjects;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The job history against a real kube-apiserver and etcd: the runtime, wired as {@code muster run} wires
 * it, records a gang that ran and succeeded in its ConfigMap, and a restarted runtime loads it. No kubelet
 * runs, so the test writes the pods' status as a kubelet would: started, then succeeded.
 */
@WithRealControlPlane(nodes = 1, nodeCpu = "4", nodeMemory = "16Gi")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class JobHistoryRealApiServerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String POD_GROUP = "scheduling.volcano.sh/v1beta1 PodGroup";
    private static final String CONFIG_MAP = "muster-job-history";
    /** Written at every change, so the test need not wait for a period. */
    private static final HistoryOptions HISTORY = new HistoryOptions(Optional.of("default"), CONFIG_MAP, 1000, Duration.ZERO);

    private final KubernetesClient client;

    JobHistoryRealApiServerTest(RealControlPlane controlPlane) {
        this.client = controlPlane.client();
    }

    @AfterEach
    void deleteWorkloadsAndHistory() {
        client.pods().inNamespace("default").withGracePeriod(0).delete();
        client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup").inNamespace("default").delete();
        client.configMaps().inNamespace("default").withName(CONFIG_MAP).delete();
        await().atMost(WAIT).until(() -> client.pods().inNamespace("default").list().getItems().isEmpty());
    }

    @Test
    void aGangThatRanAndSucceededIsKeptInTheConfigMapAndARestartedSchedulerLoadsIt() throws InterruptedException {
        // given: a scheduler that binds a gang of two, whose pods the "kubelet" says started 30 s ago
        Injector first = start();
        Instant testStarted = Instant.now();
        try {
            ClusterObjects.create(client, gang("done", 2, "default", "1"));
            await().atMost(WAIT).until(() -> bound("done-0") && bound("done-1"));
            Instant started = Instant.now().minusSeconds(30).truncatedTo(ChronoUnit.SECONDS);
            setStatus("done-0", "Running", started);
            setStatus("done-1", "Running", started);
            await().atMost(WAIT).until(() -> "2".equals(podGroupStatus("done", "running")));

            // when: both succeed
            setStatus("done-0", "Succeeded", started);
            setStatus("done-1", "Succeeded", started);

            // then: the ConfigMap holds the job, its run measured from the pods' start to when the scheduler saw them finish
            await().atMost(WAIT).until(() -> !stored().isEmpty());
            FinishedJob job = stored().jobs().get(0);
            Duration sinceTestStarted = Duration.between(testStarted, Instant.now());
            assertThat(job.id()).isEqualTo(new JobId("default", "done"));
            assertThat(job.requested().milliCpu()).isEqualTo(2000);
            assertThat(job.run()).isBetween(Duration.ofSeconds(29), Duration.ofSeconds(32).plus(sinceTestStarted));
        } finally {
            first.getInstance(KubernetesRuntime.class).stop();
        }

        // when: a new scheduler starts
        Injector second = start();
        try {
            // then: the history its sessions see holds the job
            assertThat(second.getInstance(JobHistoryStore.class).history().jobs()).extracting(FinishedJob::id)
                    .containsExactly(new JobId("default", "done"));
        } finally {
            second.getInstance(KubernetesRuntime.class).stop();
        }
    }

    @Test
    void aCorruptedEntryIsLeftOutWithAWarningAndTheRestLoads() throws InterruptedException {
        // given: a ConfigMap with a good entry, one with a negative run time, and another good one
        String good = "{\"namespace\": \"ml\", \"name\": \"good\", \"queue\": \"default\", \"finished\": \"2026-12-08T01:00:00Z\", "
                + "\"run\": \"PT1M\", \"requested\": {\"cpu\": 1000}}";
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
                .withNewMetadata().withName(CONFIG_MAP).endMetadata()
                .addToData(JobHistoryStore.KEY, "{\"jobs\": [" + good + ", " + good.replace("PT1M", "PT-1M").replace("good", "bad") + ", "
                        + good.replace("good", "also-good") + "]}")
                .build()).create();

        // when
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        Injector runtime = withStandardErrorCopiedTo(errors, this::start);
        try {
            // then: the scheduler runs with the good entries, and one warning names the ConfigMap, the entry and the bad value
            assertThat(runtime.getInstance(JobHistoryStore.class).history().jobs()).extracting(job -> job.id().name())
                    .containsExactly("good", "also-good");
            assertThat(errors.toString(UTF_8).lines().filter(line -> line.contains("WARN") && line.contains("job history")))
                    .singleElement().asString()
                    .contains("configMap=default/" + CONFIG_MAP)
                    .contains("jobs[1] (ml/bad): run 'PT-1M' is negative");
        } finally {
            runtime.getInstance(KubernetesRuntime.class).stop();
        }
    }

    private Injector start() throws InterruptedException {
        RuntimeOptions options = TestingRuntime.options(Set.of("muster"), Optional.empty()).withHistory(HISTORY);
        Injector injector = TestingRuntime.injector(client, options, Clock.systemUTC());
        injector.getInstance(KubernetesRuntime.class).start();
        return injector;
    }

    private JobHistory stored() {
        ConfigMap map = client.configMaps().inNamespace("default").withName(CONFIG_MAP).get();
        if (map == null) {
            return JobHistory.EMPTY;
        }
        HistoryCodec.Decoded decoded = HistoryCodec.decode(map.getData().get(JobHistoryStore.KEY));
        assertThat(decoded.problems()).isEmpty();
        return decoded.history();
    }

    /** Writes the pod's status as a kubelet would: its phase and when it started. */
    private void setStatus(String pod, String phase, Instant started) {
        client.pods().inNamespace("default").withName(pod).editStatus(current -> new PodBuilder(current)
                .editOrNewStatus().withPhase(phase).withStartTime(started.toString()).endStatus()
                .build());
    }

    private boolean bound(String pod) {
        Pod found = client.pods().inNamespace("default").withName(pod).get();
        return found != null && found.getSpec().getNodeName() != null;
    }

    private String podGroupStatus(String name, String field) {
        GenericKubernetesResource podGroup = ClusterObjects.get(client, POD_GROUP, "default", name);
        Object status = podGroup.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map && map.get(field) != null ? map.get(field).toString() : "";
    }

    private interface Start {
        Injector run() throws InterruptedException;
    }

    /** Runs {@code start} with what is written to standard error (where the test logger writes) also copied to {@code copy}. */
    private static Injector withStandardErrorCopiedTo(ByteArrayOutputStream copy, Start start) throws InterruptedException {
        PrintStream original = System.err;
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                original.write(b);
                copy.write(b);
            }
        }, true, UTF_8));
        try {
            return start.run();
        } finally {
            System.setErr(original);
        }
    }
}
