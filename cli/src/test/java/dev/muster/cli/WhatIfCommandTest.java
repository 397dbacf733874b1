package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WhatIfCommandTest {
    private static final String CONFIG = """
            actions: "enqueue, allocate"
            tiers:
            - plugins: [{name: priority}, {name: gang}, {name: conformance}]
            - plugins: [{name: drf}, {name: predicates}]
            """;
    private static final String NODE = """
            apiVersion: v1
            kind: Node
            metadata: {name: n1}
            status:
              allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
            """;
    private static final String QUEUE = """
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: Queue
            metadata: {name: ml}
            spec: {weight: 1}
            """;

    @TempDir
    Path directory;

    private Path config;

    @BeforeEach
    void writeConfig() throws IOException {
        config = Files.writeString(directory.resolve("scheduler.conf"), CONFIG);
    }

    private static String podGroup(String name, String queue, int minMember) {
        return """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: %s, namespace: ml}
                spec: {minMember: %d, queue: %s}
                status: {phase: Inqueue}
                """.formatted(name, minMember, queue);
    }

    private static String pod(String name, String group, String cpu) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: ml
                  annotations: {scheduling.k8s.io/group-name: %s}
                spec:
                  schedulerName: muster
                  containers: [{name: main, image: busybox, resources: {requests: {cpu: "%s"}}}]
                status: {phase: Pending}
                """.formatted(name, group, cpu);
    }

    private Path cluster(String... documents) throws IOException {
        return Files.writeString(directory.resolve("cluster.yaml"), String.join("---\n", documents));
    }

    private JsonNode json(CliRun run) throws IOException {
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        return new ObjectMapper().readTree(run.stdout());
    }

    @Test
    void printsDecisionsAsJson() throws IOException {
        Path cluster = cluster(NODE, QUEUE, podGroup("train", "ml", 2), pod("train-0", "train", "1"), pod("train-1", "train", "1"));

        JsonNode output = json(CliRun.of("what-if", "--config", config.toString(), "-o", "json", cluster.toString()));

        assertThat(output.path("binds").path("ml/train-0").asText()).isEqualTo("n1");
        assertThat(output.path("binds").path("ml/train-1").asText()).isEqualTo("n1");
        assertThat(output.path("evictions").isArray()).isTrue();
        assertThat(output.path("pipelined").isObject()).isTrue();
        assertThat(output.path("podGroups").path("ml/train").path("phase").asText()).isEqualTo("Inqueue");
    }

    @Test
    void anEvictionNamesTheActionThatChoseItInJsonAndInTheTable() throws IOException {
        // given: queue lender holds the whole node and queue ml, of equal weight, wants half of it
        Path reclaim = Files.writeString(directory.resolve("reclaim.conf"), """
                actions: "reclaim"
                tiers:
                - plugins: [{name: priority}, {name: gang}, {name: conformance}]
                - plugins: [{name: drf}, {name: predicates}, {name: proportion}]
                """);
        StringBuilder lender = new StringBuilder(podGroup("loans", "lender", 1));
        for (int i = 0; i < 4; i++) {
            lender.append("---\n").append(pod("loans-" + i, "loans", "1").replace("schedulerName: muster", "schedulerName: muster\n  nodeName: n1")
                    .replace("phase: Pending", "phase: Running"));
        }
        Path cluster = cluster(NODE, QUEUE, QUEUE.replace("name: ml", "name: lender"), lender.toString(), podGroup("train", "ml", 1),
                pod("train-0", "train", "1"));

        // when
        JsonNode output = json(CliRun.of("what-if", "--config", reclaim.toString(), "-o", "json", cluster.toString()));
        CliRun table = CliRun.of("what-if", "--config", reclaim.toString(), cluster.toString());

        // then
        assertThat(output.path("evictions")).hasSize(1);
        JsonNode details = output.path("evictionDetails").path(output.path("evictions").get(0).asText());
        assertThat(details.path("action").asText()).isEqualTo("reclaim");
        assertThat(details.path("podGroup").asText()).isEqualTo("ml/loans");
        assertThat(details.path("queue").asText()).isEqualTo("lender");
        assertThat(details.path("reason").asText()).startsWith("reclaimed for ml/train-0");
        assertThat(table.stdout()).contains("ACTION").containsPattern("ml/loans-\\d +ml/loans +lender +reclaim +reclaimed for ml/train-0");
    }

    @Test
    void explainsAGangThatDoesNotFitInTheTable() throws IOException {
        Path cluster = cluster(NODE, QUEUE, podGroup("big", "ml", 2), pod("big-0", "big", "3"), pod("big-1", "big", "3"));

        CliRun run = CliRun.of("what-if", "--config", config.toString(), cluster.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout()).contains("ml/big").contains("1/2 tasks of the gang fit").contains("Insufficient cpu");
    }

    @Test
    void aWaitingAirflowFanOutNamesItsDagRunAndTaskInTheTableAndInJson() throws IOException {
        // given: the PodGroup the Airflow bridge writes for a mapped task asking for a gang, and its two pods
        String podGroup = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata:
                  name: airflow-transform-7f3a
                  namespace: ml
                  annotations:
                    muster.dev/dag: ml/etl_daily/scheduled__2026-12-04T0000000000-3f2a
                    muster.dev/dag-node: transform
                    muster.dev/airflow-dag-id: etl_daily
                    muster.dev/airflow-run-id: scheduled__2026-12-04T00:00:00+00:00
                    muster.dev/airflow-task-id: transform
                    muster.dev/origin: Airflow
                    muster.dev/origin-workflow: etl_daily
                    muster.dev/origin-run: scheduled__2026-12-04T00:00:00+00:00
                    muster.dev/origin-step: transform
                    muster.dev/origin-step-indexes: 0-1
                    muster.dev/origin-terms: DAG,run,task
                spec: {minMember: 2, queue: ml}
                status: {phase: Inqueue}
                """;
        Path cluster = cluster(NODE, QUEUE, podGroup, pod("transform-0", "airflow-transform-7f3a", "3"),
                pod("transform-1", "airflow-transform-7f3a", "3"));

        // when
        CliRun table = CliRun.of("what-if", "--config", config.toString(), cluster.toString());
        JsonNode output = json(CliRun.of("what-if", "--config", config.toString(), "-o", "json", cluster.toString()));

        // then
        assertThat(table.exitCode()).as(table.stderr()).isZero();
        assertThat(table.stdout()).containsPattern("(?m)ml/airflow-transform-7f3a +ml +2 +Inqueue +1/2 tasks of the gang fit: .*Insufficient cpu.*"
                + "; for Airflow DAG etl_daily, run scheduled__2026-12-04T00:00:00\\+00:00, task transform\\[0-1]$");
        JsonNode group = output.path("podGroups").path("ml/airflow-transform-7f3a");
        assertThat(group.path("reason").asText()).startsWith("1/2 tasks of the gang fit").doesNotContain("etl_daily");
        assertThat(group.path("origin").path("workflow").asText()).isEqualTo("etl_daily");
        assertThat(group.path("origin").path("run").asText()).isEqualTo("scheduled__2026-12-04T00:00:00+00:00");
        assertThat(group.path("origin").path("step").asText()).isEqualTo("transform");
        assertThat(group.path("origin").path("stepIndexes").asText()).isEqualTo("0-1");
        assertThat(group.path("origin").path("description").asText())
                .isEqualTo("Airflow DAG etl_daily, run scheduled__2026-12-04T00:00:00+00:00, task transform[0-1]");
    }

    @Test
    void badObjectIsReportedAndTheRestIsStillScheduled() throws IOException {
        Path cluster = cluster(NODE, QUEUE,
                podGroup("good", "ml", 1), pod("good-0", "good", "1"),
                podGroup("bad", "ml", 1), pod("bad-0", "bad", "-2"));

        CliRun run = CliRun.of("what-if", "--config", config.toString(), "-o", "json", cluster.toString());

        assertThat(run.stderr()).contains("cluster.yaml[5] Pod ml/bad-0: spec.containers[0].resources.requests.cpu").contains("-2");
        assertThat(json(run).path("binds").path("ml/good-0").asText()).isEqualTo("n1");
        // where the bad value is written: the line in the whole file and the column of its key
        List<String> lines = Files.readAllLines(cluster);
        int line = lines.indexOf(lines.stream().filter(text -> text.contains("-2")).findFirst().orElseThrow()) + 1;
        int column = lines.get(line - 1).indexOf("cpu") + 1;
        assertThat(run.stderr()).contains("'-2' is negative (line " + line + ", column " + column + ")");
    }

    @Test
    void podGroupInAMissingQueueStaysPendingWithTheReason() throws IOException {
        Path cluster = cluster(NODE, QUEUE, podGroup("lost", "nowhere", 1), pod("lost-0", "lost", "1"));

        CliRun run = CliRun.of("what-if", "--config", config.toString(), "-o", "json", cluster.toString());

        JsonNode group = json(run).path("podGroups").path("ml/lost");
        assertThat(group.path("reason").asText()).contains("queue 'nowhere' does not exist");
        assertThat(json(run).path("binds").size()).isZero();
        assertThat(run.stderr()).contains("PodGroup ml/lost").contains("nowhere");
    }

    @Test
    void podNamingAMissingPodGroupIsReported() throws IOException {
        Path cluster = cluster(NODE, QUEUE, pod("orphan-0", "ghost", "1"));

        CliRun run = CliRun.of("what-if", "--config", config.toString(), "-o", "json", cluster.toString());

        assertThat(run.stderr()).contains("Pod ml/orphan-0").contains("ghost");
        assertThat(json(run).path("binds").size()).isZero();
    }

    @Test
    void minMemberLargerThanThePodsLeavesThePodGroupPendingWithAReason() throws IOException {
        Path cluster = cluster(NODE, QUEUE, podGroup("short", "ml", 3), pod("short-0", "short", "1"));

        CliRun run = CliRun.of("what-if", "--config", config.toString(), "-o", "json", cluster.toString());

        assertThat(run.stderr()).contains("PodGroup ml/short").contains("minMember");
        assertThat(json(run).path("podGroups").path("ml/short").path("reason").asText()).contains("minMember 3");
        assertThat(json(run).path("binds").size()).isZero();
    }

    @Test
    void unreadableConfigurationExitsWithTwo() throws IOException {
        Path bad = Files.writeString(directory.resolve("bad.conf"), "actions: allocate\ntiers: [{plugins: [{name: gnag}]}]\n");
        Path cluster = cluster(NODE);

        CliRun run = CliRun.of("what-if", "--config", bad.toString(), cluster.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("unknown plugin 'gnag'; did you mean 'gang'?");
    }

    @Test
    void unparsableManifestIsReportedAndTheOtherFilesAreScheduled() throws IOException {
        Files.writeString(directory.resolve("broken.yaml"), "kind: Node\nmetadata: {name: [unclosed\n");
        cluster(NODE, QUEUE, podGroup("good", "ml", 1), pod("good-0", "good", "1"));

        CliRun run = CliRun.of("what-if", "--config", config.toString(), "-o", "json", directory.toString());

        assertThat(run.stderr()).contains("broken.yaml[0] Node: line 3, column 1: not valid YAML").doesNotContain("\tat ");
        assertThat(json(run).path("binds").path("ml/good-0").asText()).isEqualTo("n1");
    }

    @Test
    void eachExampleOfIssue16GetsAPerObjectMessageAndTheRestIsScheduled() throws IOException {
        String aliased = pod("alias-0", "alias", "1").replace("resources: {requests: {cpu: \"1\"}}",
                "resources: {requests: &req {cpu: \"1\"}, limits: *req}");
        String infinite = pod("inf-0", "inf", "1").replace("cpu: \"1\"", "cpu: .inf");
        String noContainers = pod("empty-0", "empty", "1").replaceAll("containers: .*", "nodeSelector: {}");
        String longName = pod("n".repeat(300_000), "long", "1");
        String spine = """
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: spine}
                spec: {tier: 2, members: [{type: HyperNode, selector: {exactMatch: {name: rack-b}}}]}
                """;
        String topologyGroup = podGroup("topo", "ml", 1).replace("spec: {", "spec: {networkTopology: {mode: hard, highestTierAllowed: 2}, ");
        cluster(NODE, QUEUE, podGroup("alias", "ml", 1), aliased, podGroup("inf", "ml", 1), infinite, podGroup("empty", "ml", 1),
                noContainers, podGroup("long", "ml", 1), longName, spine, topologyGroup, pod("topo-0", "topo", "1"),
                podGroup("good", "ml", 1), pod("good-0", "good", "1"));
        Files.write(directory.resolve("latin1.yaml"), NODE.replace("name: n1", "name: n2, labels: {zone: caf\u00e9}")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Files.writeString(directory.resolve("deep.yaml"), "x: " + "[".repeat(1500) + "]".repeat(1500) + "\n");
        Files.writeString(directory.resolve("truncated.json"), "{\"apiVersion\": \"v1\", \"kind\": ");

        CliRun run = CliRun.of("what-if", "--config", config.toString(), "-o", "json", directory.toString());

        JsonNode output = json(run);
        assertThat(output.path("binds").path("ml/good-0").asText()).isEqualTo("n1");
        assertThat(output.path("binds").path("ml/alias-0").asText()).isEqualTo("n1");
        assertThat(output.path("podGroups").path("ml/topo").path("reason").asText())
                .contains("the network topology cannot be resolved: hypernode spine: member hypernode rack-b does not exist");
        assertThat(run.stderr())
                .contains("cluster.yaml[5] Pod ml/inf-0: spec.containers[0].resources.requests.cpu: '.inf' is not a Kubernetes quantity")
                .contains("cluster.yaml[7] Pod ml/empty-0: spec.containers: is required")
                .contains("cluster.yaml[9] Pod ml/" + "n".repeat(61) + "... (300003 characters): metadata.name: ")
                .contains("cluster.yaml[10] HyperNode spine: spec.members[0].selector.exactMatch.name: HyperNode 'rack-b' does not exist")
                .contains("latin1.yaml[0] Node n2: line 3, column ").contains("not UTF-8: byte 0xE9")
                .contains("deep.yaml[0]: line 1: nests deeper than 1000 levels")
                .contains("truncated.json[0]: line 1, column ").contains("cut short")
                .doesNotContain("Exception").doesNotContain("StreamReadConstraints").doesNotContain("Source:").doesNotContain("\tat ");
        assertThat(run.stderr().length()).as("a huge name is not printed whole").isLessThan(10_000);
    }

    @Test
    void argumentsOfAnActionThatIsNotListedAreCheckedToo() throws IOException {
        Path unlisted = Files.writeString(directory.resolve("unlisted.conf"), CONFIG + "configurations: [{name: preempt, arguments: x}]\n");

        CliRun run = CliRun.of("what-if", "--config", unlisted.toString(), cluster(NODE).toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("unlisted.conf: 1 problem").contains("configurations[preempt].arguments: expected a mapping");
    }

    @Test
    void missingFileExitsWithTwo() {
        CliRun run = CliRun.of("what-if", "--config", config.toString(), directory.resolve("absent.yaml").toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("absent.yaml");
    }

    @Test
    void sameInputGivesTheSameOutput() throws IOException {
        Path cluster = cluster(NODE, QUEUE, podGroup("a", "ml", 1), pod("a-0", "a", "1"), pod("a-1", "a", "1"),
                podGroup("b", "ml", 2), pod("b-0", "b", "2"), pod("b-1", "b", "2"));

        CliRun first = CliRun.of("what-if", "--config", config.toString(), "-o", "json", cluster.toString());
        CliRun second = CliRun.of("what-if", "--config", config.toString(), "-o", "json", cluster.toString());

        assertThat(first.stdout()).isEqualTo(second.stdout());
    }
}
