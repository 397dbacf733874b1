package dev.muster.engine.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import java.time.Clock;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A pod that says {@code muster.dev/gang: "true"} and names no group is held for the bridge that will
 * name its gang: it is in no job (so it gets no automatic PodGroup and cannot start alone) until the
 * group annotation appears, then it joins that group as any pod does.
 */
class HeldGangPodTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String CLUSTER = """
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: Queue
            metadata: {name: default}
            spec: {weight: 1}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: n1}
            status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}
            ---
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: PodGroup
            metadata: {name: fan-out, namespace: default}
            spec: {minMember: 1, queue: default}
            """;

    private static String pod(String annotations) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: train-0
                  namespace: default
                  uid: 5f0c3d52-1f7e-4a3e-9d07-2b1a3c4d5e6f
                  annotations: {%s}
                spec:
                  schedulerName: muster
                  containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
                """.formatted(annotations);
    }

    @Test
    void aGangPodWithoutItsGroupIsInNoJobAndGetsNoAutomaticPodGroupInACluster() throws JsonProcessingException {
        // given
        ClusterCache cache = cache(pod("muster.dev/gang: \"true\""));

        // when
        CacheSnapshot snapshot = cache.snapshot();

        // then
        assertThat(snapshot.problems()).isEmpty();
        assertThat(snapshot.cluster().jobs().values()).flatExtracting(Job::tasks).isEmpty();
        assertThat(snapshot.cluster().jobs()).containsOnlyKeys(JobId.parse("default/fan-out"));
    }

    @Test
    void onceTheBridgeNamesItsGroupThePodJoinsIt() throws JsonProcessingException {
        // given
        ClusterCache cache = cache(pod("muster.dev/gang: \"true\", scheduling.k8s.io/group-name: fan-out"));

        // when
        CacheSnapshot snapshot = cache.snapshot();

        // then
        assertThat(snapshot.cluster().jobs().get(JobId.parse("default/fan-out")).tasks())
                .extracting(task -> task.id().name()).containsExactly("train-0");
    }

    @Test
    void aGangAnnotationOtherThanTrueLeavesThePodToItsAutomaticPodGroup() throws JsonProcessingException {
        // given
        ClusterCache cache = cache(pod("muster.dev/gang: \"false\""));

        // when
        CacheSnapshot snapshot = cache.snapshot();

        // then
        assertThat(snapshot.cluster().jobs()).containsKey(JobId.parse("default/podgroup-5f0c3d52-1f7e-4a3e-9d07-2b1a3c4d5e6f"));
    }

    @Test
    void inAFileTheHeldPodIsWarnedOfWithItsField() {
        // when
        ManifestResult read = new ManifestReader(Set.of("muster")).read("cluster.yaml", CLUSTER + "---\n" + pod("muster.dev/gang: \"true\""));

        // then
        assertThat(read.problems()).extracting(ManifestProblem::describe).containsExactly(
                "cluster.yaml[2] PodGroup default/fan-out: spec.minMember: minMember 1 is more than its 0 pods",
                "cluster.yaml[3] Pod default/train-0: metadata.annotations.muster.dev/gang: the pod is in a gang that no "
                        + "scheduling.k8s.io/group-name annotation names yet; it is not scheduled until a bridge names it");
        assertThat(read.snapshot().jobs().values()).flatExtracting(Job::tasks).isEmpty();
    }

    private static ClusterCache cache(String pod) throws JsonProcessingException {
        ClusterCache cache = new ClusterCache(Set.of("muster"), Clock.systemUTC());
        String[] documents = CLUSTER.split("---\n");
        cache.put(ResourceKind.QUEUE, object(documents[0]));
        cache.put(ResourceKind.NODE, object(documents[1]));
        cache.put(ResourceKind.VOLCANO_POD_GROUP, object(documents[2]));
        cache.put(ResourceKind.POD, object(pod));
        return cache;
    }

    private static ObjectNode object(String yaml) throws JsonProcessingException {
        return (ObjectNode) YAML.readTree(yaml);
    }
}
