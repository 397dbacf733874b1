package dev.muster.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.sim.SimulationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cluster files are read as manifests are (issue 16): aliases resolved, strict UTF-8, messages in our words. */
class ClusterSpecLoaderTest {
    @Test
    void aliasesAreResolved() {
        ClusterSpec spec = ClusterSpecLoader.parse("cluster.yaml", """
                pools:
                  - {name: gpu, count: 2, allocatable: &big {cpu: 48, memory: 448Gi}}
                  - {name: cpu, count: 3, allocatable: *big}
                """);

        assertThat(spec.pools()).hasSize(2);
        assertThat(spec.pools().get(1).allocatable()).isEqualTo(spec.pools().get(0).allocatable());
    }

    @Test
    void poolsWithOneRackPrefixShareRacks() {
        ClusterSpec spec = ClusterSpecLoader.parse("cluster.yaml", """
                pools:
                  - {name: cn, count: 4, allocatable: {cpu: 192}, rackSize: 2, rackPrefix: dc}
                  - {name: hn, count: 2, allocatable: {cpu: 96, nvidia.com/gpu: 4}, rackSize: 1, rackPrefix: dc}
                  - {name: other, count: 1, allocatable: {cpu: 8}}
                """);

        assertThat(spec.nodes().values()).extracting(node -> node.name().value() + " " + node.labels().get(ClusterSpec.RACK_LABEL))
                .containsExactly("cn-000 dc-rack-0", "cn-001 dc-rack-0", "cn-002 dc-rack-1", "cn-003 dc-rack-1",
                        "hn-000 dc-rack-0", "hn-001 dc-rack-1", "other-000 other-rack-0");
        assertThatThrownBy(() -> ClusterSpecLoader.parse("cluster.yaml", "pools: [{name: a, count: 1, allocatable: {cpu: 1}, rackPrefix: Dc}]"))
                .hasMessageContaining("pools[0].rackPrefix: 'Dc' is not a DNS label");
    }

    @Test
    void aByteThatIsNotUtf8IsReportedWithItsPlace(@TempDir Path folder) throws IOException {
        Path file = folder.resolve("cluster.yaml");
        Files.write(file, "pools:\n  - {name: caf\u00e9, count: 1, allocatable: {cpu: 1}}\n".getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> ClusterSpecLoader.load(file))
                .isInstanceOf(SimulationException.class)
                .hasMessage(file + ": line 2, column 15: not UTF-8: byte 0xE9 does not begin a character; the document is ignored");
    }

    @Test
    void infiniteAndNegativeQuantitiesAreRefused() {
        assertThatThrownBy(() -> ClusterSpecLoader.parse("cluster.yaml", """
                pools:
                  - {name: a, count: 1, allocatable: {cpu: .inf, memory: -1Gi}}
                """))
                .isInstanceOf(SimulationException.class)
                .hasMessageContaining("pools[0].allocatable.cpu: '.inf' is not a Kubernetes quantity")
                .hasMessageContaining("pools[0].allocatable.memory: '-1Gi' is negative");
    }

    @Test
    void deepNestingIsRefusedInOurWords() {
        assertThatThrownBy(() -> ClusterSpecLoader.parse("cluster.yaml", "pools: " + "[".repeat(1500) + "]".repeat(1500) + "\n"))
                .isInstanceOf(SimulationException.class)
                .hasMessage("cluster.yaml: line 1: nests deeper than 1000 levels; the document is ignored");
    }
}
