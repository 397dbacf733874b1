package dev.muster.engine.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Snapshots reuse the conversion of a pod whose tree is unchanged, and only then. */
class PodConversionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TaskId POD = new TaskId("default", "train-0");

    private final ClusterCache cache = new ClusterCache(Set.of("muster"), Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));

    @Test
    void aPodStoredAgainIsReadAgain() {
        // given
        cache.put(ResourceKind.NODE, tree("""
                {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
                 "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"},
                            "conditions": [{"type": "Ready", "status": "True"}]}}"""));
        cache.put(ResourceKind.POD, pod("", "1"));
        assertThat(task(cache.snapshot()).status()).isEqualTo(TaskStatus.PENDING);

        // when
        cache.put(ResourceKind.POD, pod("\"nodeName\": \"n1\",", "1"));

        // then
        Task task = task(cache.snapshot());
        assertThat(task.status()).isEqualTo(TaskStatus.BOUND);
        assertThat(task.node()).contains(new NodeName("n1"));
    }

    @Test
    void anUnchangedPodHasItsProblemsInEverySnapshot() {
        // given
        cache.put(ResourceKind.POD, pod("", "-1"));

        // when
        CacheSnapshot first = cache.snapshot();
        CacheSnapshot second = cache.snapshot();

        // then
        assertThat(first.problems()).extracting(ManifestProblem::describe)
                .containsExactly("api-server[0] Pod default/train-0: spec.containers[0].resources.requests.cpu: '-1' is negative");
        assertThat(second.problems()).isEqualTo(first.problems());
        assertThat(second.cluster()).isEqualTo(first.cluster());
    }

    private static ObjectNode pod(String nodeName, String cpu) {
        return tree("""
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "train-0", "namespace": "default", "uid": "u-0"},
                 "spec": {%s "schedulerName": "muster",
                          "containers": [{"name": "main", "resources": {"requests": {"cpu": "%s"}}}]}}"""
                .formatted(nodeName, cpu));
    }

    private static Task task(CacheSnapshot snapshot) {
        return snapshot.cluster().jobs().values().stream()
                .flatMap(job -> job.tasks().stream())
                .filter(task -> task.id().equals(POD))
                .findFirst()
                .orElseThrow();
    }

    private static ObjectNode tree(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
