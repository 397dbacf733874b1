package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {
    private static final String SYNTHETIC = "synthetic:jobs=20,queues=2,gpus=1|2|8,interval=60,duration=60..600";
    private static final String ALIBABA_FIXTURE = "alibaba-dag:../simulator/src/test/resources/traces/alibaba_v2018_dag/batch_task_50_dag_jobs.csv";

    @Test
    void printsTheIssuesJsonForEachPolicyAndTheSameNumbersForTheSameSeed() throws IOException {
        CliRun first = CliRun.of("simulate", "--workload", SYNTHETIC, "--policies", "baseline,muster", "--seed", "5", "-o", "json");
        CliRun second = CliRun.of("simulate", "--workload", SYNTHETIC, "--policies", "baseline,muster", "--seed", "5", "-o", "json");

        assertThat(first.exitCode()).isZero();
        JsonNode muster = new ObjectMapper().readTree(first.stdout()).path("policies").path("muster");
        assertThat(muster.path("jobs").asInt()).isEqualTo(20);
        for (String key : new String[] {"completed", "avgJctSeconds", "p50JctSeconds", "p95JctSeconds", "p99JctSeconds", "makespanSeconds",
                "avgQueueingSeconds", "gpuAllocation", "stuckJobs", "wastedGpuSeconds", "jainFairness", "evictions", "p99EvictionsPerJob",
                "maxEvictionsPerJob"}) {
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

    /**
     * The issue's end-to-end check on a DAG trace, small enough for every build: 49 Alibaba DAG jobs (the
     * fixture's 50 but one that did not finish) squeezed onto 3 nodes, so that both policies queue.
     */
    @Test
    void comparesBothPoliciesOnTheAlibabaDagFixtureInJsonAndInTheReport(@TempDir Path dir) throws IOException {
        // given
        Path cluster = dir.resolve("cluster.yaml");
        Files.writeString(cluster, """
                pools:
                  - name: cpu
                    count: 3
                    allocatable: {cpu: 96, memory: 512Gi}
                """);
        Path report = dir.resolve("report.html");

        // when
        CliRun run = CliRun.of("simulate", "--workload", ALIBABA_FIXTURE, "--cluster", cluster.toString(), "--time-scale", "0.001",
                "--policies", "baseline,muster", "-o", "json", "--report", report.toString());

        // then
        assertThat(run.exitCode()).isZero();
        JsonNode root = new ObjectMapper().readTree(run.stdout());
        assertThat(root.path("workload").path("jobs").asInt()).isEqualTo(49);
        assertThat(root.path("workload").path("skippedJobs").asInt()).isEqualTo(1);
        assertThat(root.path("workload").path("offeredLoad").asDouble()).isGreaterThan(1);
        assertThat(root.path("workload").path("offeredLoadWithinWindow").asDouble()).isPositive()
                .isLessThanOrEqualTo(root.path("workload").path("offeredLoad").asDouble());
        String html = Files.readString(report);
        for (String policy : new String[] {"baseline", "muster"}) {
            JsonNode summary = root.path("policies").path(policy);
            assertThat(summary.path("completed").asInt()).as(policy).isEqualTo(49);
            assertThat(summary.path("stuckJobs").asInt()).as(policy).isZero();
            assertThat(summary.path("livelocked").asBoolean()).as(policy).isFalse();
            assertThat(summary.path("avgQueueingSeconds").asDouble()).as(policy).isPositive();
            // every job completed and some waited: the average without waiting is below the policy's
            assertThat(root.path("workload").path("avgJctWithoutWaitingSeconds").asDouble()).as(policy).isPositive()
                    .isLessThan(summary.path("avgJctSeconds").asDouble());
            assertThat(summary.path("cpuAllocation").asDouble()).as(policy).isPositive();
            assertThat(summary.path("gpuAllocation").asDouble()).as(policy).isZero();
            assertThat(html).contains(cell(policy, "completed", "49/49"))
                    .contains(cell(policy, "avgJctSeconds", String.format(Locale.ROOT, "%.0f", summary.path("avgJctSeconds").asDouble())))
                    .contains(cell(policy, "cpuAllocation", String.format(Locale.ROOT, "%.1f", 100 * summary.path("cpuAllocation").asDouble())));
        }
        assertThat(html).contains("cpu allocation over time").doesNotContain("gpuAllocation");
    }

    private static String cell(String policy, String metric, String value) {
        return "data-policy=\"" + policy + "\" data-metric=\"" + metric + "\">" + value + "</td>";
    }

    @Test
    void theTableShowsCpuAllocationForACpuOnlyTraceAndGpuAllocationOtherwise() {
        CliRun cpu = CliRun.of("simulate", "--workload",
                ALIBABA_FIXTURE, "--jobs", "10",
                "--policies", "muster");
        CliRun gpu = CliRun.of("simulate", "--workload", SYNTHETIC, "--policies", "muster");

        assertThat(cpu.exitCode()).isZero();
        assertThat(cpu.stdout()).contains("cpu %").doesNotContain("GPU %");
        assertThat(gpu.stdout()).contains("GPU %").doesNotContain("cpu %");
    }

    @Test
    void theTableAndTheJsonShowEvictionsPerJobNextToTheTotal(@TempDir Path dir) throws IOException {
        // given: two queues crowding two 8-GPU nodes, with issue 18's lending and reclaim
        Path cluster = dir.resolve("cluster.yaml");
        Files.writeString(cluster, """
                pools:
                  - name: gpu
                    count: 2
                    allocatable: {cpu: 48, memory: 448Gi, nvidia.com/gpu: 8}
                """);
        String[] arguments = {"simulate", "--workload", "synthetic:jobs=40,queues=2,gpus=1|2|4,interval=30,duration=600..3600",
            "--cluster", cluster.toString(), "--policies", "conf:../examples/simulate/muster-issue18.conf", "--seed", "5"};

        // when
        CliRun json = CliRun.of(concat(arguments, "-o", "json"));
        CliRun table = CliRun.of(arguments);

        // then
        assertThat(json.exitCode()).isZero();
        JsonNode summary = new ObjectMapper().readTree(json.stdout()).path("policies").elements().next();
        int evictions = summary.path("evictions").asInt();
        int p99 = summary.path("p99EvictionsPerJob").asInt();
        int max = summary.path("maxEvictionsPerJob").asInt();
        assertThat(evictions).isPositive();
        assertThat(max).isPositive().isLessThanOrEqualTo(evictions).isGreaterThanOrEqualTo(p99);
        assertThat(table.stdout()).contains("evictions").contains("p99 evict/j").contains("max evict/j")
                .containsPattern(" " + evictions + " +" + p99 + " +" + max + "\\R");
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }

    @Test
    void anUnknownPolicyIsBadInput() {
        CliRun run = CliRun.of("simulate", "--workload", SYNTHETIC, "--policies", "baseline,fifo");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("unknown policy 'fifo': use baseline, muster, volcano or conf:PATH");
    }

    @Test
    void anUnknownDagEstimateModelIsBadInput() {
        CliRun run = CliRun.of("simulate", "--workload", SYNTHETIC, "--dag-estimates", "lognormal:-2");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("duration estimates 'lognormal:-2': sigma '-2' is not a non-negative number");
    }

    @Test
    void aHistoryThatIsNotNoneOrLastNIsBadInput() {
        CliRun run = CliRun.of("simulate", "--workload", SYNTHETIC, "--history", "last:0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("--history 'last:0': expected none or last:N with N a positive whole number");
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
