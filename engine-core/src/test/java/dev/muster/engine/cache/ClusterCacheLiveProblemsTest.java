package dev.muster.engine.cache;


import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.muster.engine.model.JobId;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What is a mistake in a file is normal in a running cluster: Volcano's job controller creates a
 * PodGroup before its pods, and deletes it while the finished pods stay. The cache does not warn of
 * either; the manifest reader still does.
 */
class ClusterCacheLiveProblemsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String PODGROUP_BEFORE_ITS_PODS = """
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: PodGroup
            metadata: {name: training, namespace: default}
            spec: {minMember: 2, queue: default}
            """;
    private static final String FINISHED_POD_OF_A_DELETED_JOB = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: done-0
              namespace: default
              annotations: {scheduling.k8s.io/group-name: done}
            spec:
              schedulerName: muster
              nodeName: n1
              containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
            status: {phase: Succeeded}
            """;
    private static final String QUEUE_AND_NODE = """
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: Queue
            metadata: {name: default}
            spec: {weight: 1}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: n1}
            status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}
            """;

    @Test
    void aPodGroupAheadOfItsPodsAndAFinishedPodWithoutItsPodGroupAreNoProblemInACluster() throws JsonProcessingException {
        // given
        ClusterCache cache = new ClusterCache(Set.of("muster"), Clock.systemUTC());
        cache.put(ResourceKind.VOLCANO_POD_GROUP, object(PODGROUP_BEFORE_ITS_PODS));
        cache.put(ResourceKind.POD, object(FINISHED_POD_OF_A_DELETED_JOB));
        List<String> documents = List.of(QUEUE_AND_NODE.split("---\n"));
        cache.put(ResourceKind.QUEUE, object(documents.get(0)));
        cache.put(ResourceKind.NODE, object(documents.get(1)));

        // when
        CacheSnapshot snapshot = cache.snapshot();

        // then
        assertThat(snapshot.problems()).isEmpty();
        assertThat(snapshot.cluster().jobs()).containsKey(JobId.parse("default/training"));
    }

    @Test
    void inFilesBothAreWarnedOf() {
        // when
        ManifestResult read = new ManifestReader(Set.of("muster")).read("cluster.yaml",
                PODGROUP_BEFORE_ITS_PODS + "---\n" + FINISHED_POD_OF_A_DELETED_JOB + "---\n" + QUEUE_AND_NODE);

        // then
        assertThat(read.problems()).extracting(ManifestProblem::describe).anySatisfy(text -> assertThat(text)
                .contains("spec.minMember").contains("minMember 2 is more than its 0 pods"));
        assertThat(read.problems()).extracting(ManifestProblem::describe).anySatisfy(text -> assertThat(text)
                .contains("PodGroup default/done does not exist; the pod is not scheduled"));
    }

    private static ObjectNode object(String yaml) throws JsonProcessingException {
        return (ObjectNode) YAML.readTree(yaml);
    }

    @Test
    void anObjectTheApiServerWouldRefuseIsReportedAsWhatIfPrintsIt() throws JsonProcessingException {
        // given: a pod without containers, as an API server that skipped validation could hand over
        ClusterCache cache = new ClusterCache(Set.of("muster"), Clock.systemUTC());
        String noContainers = "apiVersion: v1\nkind: Pod\nmetadata: {name: empty-0, namespace: default, uid: u-1}\n"
                + "spec: {schedulerName: muster}\n";
        cache.put(ResourceKind.POD, object(noContainers));
        List<String> documents = List.of(QUEUE_AND_NODE.split("---\n"));
        cache.put(ResourceKind.QUEUE, object(documents.get(0)));
        cache.put(ResourceKind.NODE, object(documents.get(1)));

        // when
        CacheSnapshot snapshot = cache.snapshot();
        ManifestResult file = new ManifestReader(Set.of("muster")).read("cluster.yaml", noContainers);

        // then: the same words as what-if, on the object itself
        assertThat(snapshot.invalid()).singleElement().satisfies(invalid -> {
            assertThat(invalid.name()).isEqualTo("empty-0");
            assertThat(invalid.problems()).containsExactly("spec.containers: is required: a pod has at least one container");
        });
        assertThat(file.problems()).extracting(ManifestProblem::describe)
                .containsExactly("cluster.yaml[0] Pod default/empty-0: spec.containers: is required: a pod has at least one container");
    }
}
