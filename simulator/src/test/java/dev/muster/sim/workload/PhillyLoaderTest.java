package dev.muster.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.sim.SimulationException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PhillyLoaderTest {
    static Path fixture(String name) {
        try {
            return Path.of(PhillyLoaderTest.class.getResource("/traces/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void readsTheFirstJobsFromTheStartAsGangsInVirtualClusterQueues() {
        Workload workload = PhillyLoader.load(fixture("philly/philly_2017-10-01_first400.csv"),
                new TraceSelection(Optional.of(LocalDateTime.parse("2017-10-01T00:00:00")), 100, 1.0), 8);

        assertThat(workload.jobs()).hasSize(100);
        assertThat(workload.problems()).isEmpty();
        assertThat(workload.epoch()).isEqualTo(Instant.parse("2017-10-01T00:00:45Z"));
        WorkloadJob first = workload.jobs().get(0);
        assertThat(first.arrivalMillis()).isZero();
        assertThat(first.queue()).isEqualTo(new QueueName("vc-6214e9"));
        assertThat(first.gangs()).singleElement().satisfies(gang -> {
            assertThat(gang.pods()).isEqualTo(1);
            assertThat(gang.durationMillis()).isEqualTo(30_000);
            assertThat(gang.perPod().get(Resources.GPU)).isEqualTo(1000);
        });
        assertThat(workload.jobs().get(1).arrivalMillis()).isEqualTo(70_000);
        assertThat(workload.queueWeights().values().stream().mapToInt(Integer::intValue).sum()).isBetween(95, 115);
    }

    @Test
    void theTimeScaleMultipliesInterArrivalTimes() {
        Workload workload = PhillyLoader.load(fixture("philly/philly_2017-10-01_first400.csv"), new TraceSelection(Optional.empty(), 2, 0.5), 8);

        assertThat(workload.jobs().get(1).arrivalMillis()).isEqualTo(35_000);
    }

    @Test
    void bigJobsSpanServersAndCanBeSplitPerGpu() {
        assertThat(PhillyLoader.gang(16, 8, 1000)).satisfies(gang -> {
            assertThat(gang.pods()).isEqualTo(2);
            assertThat(gang.perPod().get(Resources.GPU)).isEqualTo(8000);
            assertThat(gang.perPod().milliCpu()).isEqualTo(48_000);
        });
        assertThat(PhillyLoader.gang(12, 8, 1000).perPod().get(Resources.GPU)).isEqualTo(6000);
        assertThat(PhillyLoader.gang(4, 1, 1000).pods()).isEqualTo(4);
    }

    @Test
    void badRowsAreSkippedWithTheirLineNumbers(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("philly.csv");
        Files.writeString(trace, """
                timestamp,duration,num_gpus,gpu_time,cluster
                2017-10-01 00:00:10,60.0,1,60.0,6214e9
                2017-10-01 00:00:20,sixty,1,60.0,6214e9
                2017-13-01 00:00:30,60.0,1,60.0,6214e9

                2017-10-01 00:00:40,60.0,0,0.0,6214e9
                2017-10-01 00:00:50,60.0,2,120.0,b436b2
                """);

        Workload workload = PhillyLoader.load(trace, TraceSelection.ALL, 8);

        assertThat(workload.jobs()).extracting(WorkloadJob::id).containsExactly("philly-2", "philly-7");
        assertThat(workload.problems()).extracting(LoadProblem::describe).containsExactly(
                "philly.csv:3: duration is not a number: 'sixty'",
                "philly.csv:4: timestamp is not yyyy-MM-dd HH:mm:ss: '2017-13-01 00:00:30'",
                "philly.csv:6: num_gpus must be a positive integer: '0'");
    }

    @Test
    void aMissingFileOrColumnIsAnError(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> PhillyLoader.load(dir.resolve("absent.csv"), TraceSelection.ALL, 8))
                .isInstanceOf(SimulationException.class).hasMessageContaining("absent.csv does not exist");
        Path trace = dir.resolve("bad.csv");
        Files.writeString(trace, "timestamp,duration,gpus\n");
        assertThatThrownBy(() -> PhillyLoader.load(trace, TraceSelection.ALL, 8))
                .isInstanceOf(SimulationException.class).hasMessageContaining("bad.csv:1: header lacks column(s) num_gpus, cluster");
    }
}
