package dev.muster.engine.actions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.cache.ManifestReader;
import dev.muster.engine.cache.ManifestResult;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.testing.TestingScheduler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Gangs that other projects make, read from their real shapes and scheduled by the default
 * configuration (plus {@code network-topology-aware}): Kubeflow Trainer v2's Volcano PodGroup with its
 * network topology, and a Workload API PodGroup; each is bound all or nothing.
 */
class ImportedGangsTest {
    private static final TestingScheduler SCHEDULER = TestingScheduler.withConfig("""
            actions: "enqueue, allocate, backfill"
            tiers:
            - plugins:
              - name: priority
              - name: gang
                enablePreemptable: false
              - name: conformance
            - plugins:
              - name: overcommit
              - name: drf
                enablePreemptable: false
              - name: predicates
              - name: proportion
              - name: nodeorder
              - name: binpack
              - name: network-topology-aware
            """);
    private static final JobId TRAIN_JOB = new JobId("default", "volcano-example");
    private static final JobId WORKLOAD_GANG = new JobId("some-ns", "training-job-workers-pg");

    private static String fixture(String path) {
        try (InputStream in = ImportedGangsTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String node(String name, String cpu) {
        return """
                apiVersion: v1
                kind: Node
                metadata: {name: %s}
                status:
                  allocatable: {cpu: "%s", memory: 32Gi, pods: "110"}
                  conditions: [{type: Ready, status: "True"}]
                ---
                """.formatted(name, cpu);
    }

    private static String rack(String name, String... nodes) {
        String members = java.util.Arrays.stream(nodes)
                .map(node -> "    - {type: Node, selector: {exactMatch: {name: " + node + "}}}")
                .collect(Collectors.joining("\n"));
        return """
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: %s}
                spec:
                  tier: 1
                  members:
                %s
                ---
                """.formatted(name, members);
    }

    /** Two racks (tier 1) of two nodes under a spine (tier 2); a rack has {@code cpuPerNode} twice. */
    private static String twoRacks(String cpuPerNode) {
        return node("a1", cpuPerNode) + node("a2", cpuPerNode) + node("b1", cpuPerNode) + node("b2", cpuPerNode)
                + rack("rack-a", "a1", "a2") + rack("rack-b", "b1", "b2") + """
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: spine}
                spec:
                  tier: 2
                  members:
                    - {type: HyperNode, selector: {exactMatch: {name: rack-a}}}
                    - {type: HyperNode, selector: {exactMatch: {name: rack-b}}}
                ---
                """;
    }

    private static ClusterSnapshot read(Set<String> schedulerNames, String yaml) {
        ManifestResult result = new ManifestReader(schedulerNames).read("cluster.yaml", yaml);
        assertThat(result.errors()).isEmpty();
        return result.snapshot();
    }

    @Test
    void aTrainJobIsBoundWholeInsideOneRackAsItsNetworkTopologyAsks() {
        // given: each rack has the 4 cpu the TrainJob needs
        ClusterSnapshot cluster = read(Set.of("volcano"), twoRacks("2") + fixture("/trainer-v2/volcano-trainjob.yaml"));

        // when
        SessionResult result = SCHEDULER.runOnce(cluster);

        // then
        assertThat(result.binds()).hasSize(4);
        Set<NodeName> rackA = Set.of(new NodeName("a1"), new NodeName("a2"));
        Set<NodeName> rackB = Set.of(new NodeName("b1"), new NodeName("b2"));
        assertThat(Set.copyOf(result.binds().values())).isIn(rackA, rackB);
    }

    @Test
    void aTrainJobThatFitsOnlyAcrossRacksIsNotBoundAtAll() {
        // given: 6 cpu in all, but only 3 in either rack, and highestTierAllowed 1 keeps the gang in one
        ClusterSnapshot cluster = read(Set.of("volcano"), twoRacks("1500m") + fixture("/trainer-v2/volcano-trainjob.yaml"));

        // when
        SessionResult result = SCHEDULER.runOnce(cluster);

        // then
        assertThat(result.binds()).isEmpty();
        assertThat(result.jobs().get(TRAIN_JOB).ready()).isFalse();
        assertThat(result.jobs().get(TRAIN_JOB).reason()).isPresent();
    }

    @Test
    void aWorkloadGangIsBoundWholeWhenItFits() {
        // given
        ClusterSnapshot cluster = read(Set.of("muster"), node("n1", "2") + node("n2", "2") + fixture("/workload-api/gang-podgroup.yaml"));

        // when
        SessionResult result = SCHEDULER.runOnce(cluster);

        // then
        assertThat(result.binds()).hasSize(4);
        assertThat(result.jobs().get(WORKLOAD_GANG).ready()).isTrue();
    }

    @Test
    void aWorkloadGangThatDoesNotFitIsNotBoundAtAll() {
        // given: room for three of its four pods
        ClusterSnapshot cluster = read(Set.of("muster"), node("n1", "2") + node("n2", "1") + fixture("/workload-api/gang-podgroup.yaml"));

        // when
        SessionResult result = SCHEDULER.runOnce(cluster);

        // then
        assertThat(result.binds()).isEmpty();
        assertThat(result.jobs().get(WORKLOAD_GANG).ready()).isFalse();
        assertThat(result.jobs().get(WORKLOAD_GANG).reason()).hasValueSatisfying(reason -> assertThat(reason).contains("3/4"));
    }

    @Test
    void aBasicWorkloadGroupIsBoundPodByPodAsFarAsThereIsRoom() {
        // given: the same group with the basic policy, room for three of its four pods
        String gang = fixture("/workload-api/gang-podgroup.yaml");
        String yaml = gang.replace("  schedulingPolicy:\n    gang:\n      minCount: 4\n", "  schedulingPolicy:\n    basic: {}\n");
        assertThat(yaml).isNotEqualTo(gang);
        ClusterSnapshot cluster = read(Set.of("muster"), node("n1", "2") + node("n2", "1") + yaml);

        // when
        SessionResult result = SCHEDULER.runOnce(cluster);

        // then
        assertThat(result.binds()).hasSize(3);
    }
}
