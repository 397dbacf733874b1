package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {
    private static final String SYNTHETIC = "synthetic:jobs=20,queues=2,gpus=1|2|8,interval=60,duration=60..600";

    @Test
    void printsTheIssuesJsonForEachPolicyAndTheSameNumbersForTheSameSeed() throws IOException {
        CliRun first = CliRun.of("simulate", "--workload", SYNTHETIC, "--policies", "baseline,muster", "--seed", "5", "-o", "json");
        CliRun second = CliRun.of("simulate", "--workload", SYNTHETIC, "--policies", "baseline,muster", "--seed", "5", "-o", "json");

        assertThat(first.exitCode()).isZero();
        JsonNode muster = new ObjectMapper().readTree(first.stdout()).path("policies").path("muster");
        assertThat(muster.path("jobs").asInt()).isEqualTo(20);
        for (String key : new String[] {"completed", "avgJctSeconds", "p50JctSeconds", "p95JctSeconds", "p99JctSeconds", "makespanSeconds",
                "avgQueueingSeconds", "gpuAllocation", "stuckJobs", "wastedGpuSeconds", "jainFairness"}) {
            assertThat(muster.has(key)).as(key).isTrue();
        }
        assertThat(second.stdout()).isEqualTo(first.stdout());
    }

    @Test
    void writesTheReportAndReadsAClusterFile(@TempDir Path dir) throws IOException {
        Path cluster = dir.resolve("cluster.yaml");
        Files.writeString(cluster, """
                pools:
                  - name: gpu
                    count: 3
                    allocatable: {cpu: 48, memory: 448Gi, nvidia.com/gpu: 8}
                """);
        Path report = dir.resolve("report.html");

        CliRun run = CliRun.of("simulate", "--workload", SYNTHETIC, "--cluster", cluster.toString(), "--policies", "muster", "--report", report.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout()).contains("20 jobs on 3 nodes").contains("muster");
        assertThat(Files.readString(report)).contains("data-policy=\"muster\"");
    }

    @Test
    void theTableShowsCpuAllocationForACpuOnlyTraceAndGpuAllocationOtherwise() {
        CliRun cpu = CliRun.of("simulate", "--workload",
                "alibaba-dag:../simulator/src/test/resources/traces/alibaba_v2018_dag/batch_task_50_dag_jobs.csv", "--jobs", "10",
                "--policies", "muster");
        CliRun gpu = CliRun.of("simulate", "--workload", SYNTHETIC, "--policies", "muster");

        assertThat(cpu.exitCode()).isZero();
        assertThat(cpu.stdout()).contains("cpu %").doesNotContain("GPU %");
        assertThat(gpu.stdout()).contains("GPU %").doesNotContain("cpu %");
    }

    @Test
    void anUnknownPolicyIsBadInput() {
        CliRun run = CliRun.of("simulate", "--workload", SYNTHETIC, "--policies", "baseline,fifo");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("unknown policy 'fifo': use baseline, muster or conf:PATH");
    }

    @Test
    void anUnknownDagEstimateModelIsBadInput() {
        CliRun run = CliRun.of("simulate", "--workload", SYNTHETIC, "--dag-estimates", "lognormal:-2");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("duration estimates 'lognormal:-2': sigma '-2' is not a non-negative number");
    }

    @Test
    void aMissingTraceOrClusterFileIsBadInput(@TempDir Path dir) {
        CliRun trace = CliRun.of("simulate", "--workload", "philly:" + dir.resolve("none.csv"));
        CliRun cluster = CliRun.of("simulate", "--workload", SYNTHETIC, "--cluster", dir.resolve("none.yaml").toString());

        assertThat(trace.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(trace.stderr()).contains("none.csv does not exist");
        assertThat(cluster.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(cluster.stderr()).contains("cluster file").contains("does not exist");
    }
}
