package dev.muster.engine.plugins.tasktopology;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static dev.muster.engine.testing.ClusterScenario.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import dev.muster.engine.testing.TestingScoring;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TaskTopologyPluginTest {
    private static final String SPREADING = """
            actions: "enqueue, allocate"
            tiers:
            - plugins:
              - name: gang
              - name: predicates
              - name: nodeorder
            """;
    private static final String WITH_TOPOLOGY = SPREADING + """
              - name: task-topology
                arguments:
                  task-topology.weight: 10
            """;

    @Test
    void affinityPacksTheParameterServerWithItsWorkersWhereNodeorderAloneSpreadsThem() {
        ClusterScenario.Builder scenario = threeNodes(4);
        tfJob(scenario, "ml/tf", 1, 3).annotation("ml/tf", TaskTopology.AFFINITY, "ps,worker");

        SessionResult spread = TestingScheduler.withConfig(SPREADING).runOnce(scenario.build());
        SessionResult packed = TestingScheduler.withConfig(WITH_TOPOLOGY).runOnce(scenario.build());

        assertThat(spread.binds()).hasSize(4);
        assertThat(spread.binds().values().stream().distinct().count()).isGreaterThan(1);
        assertThat(packed.binds()).hasSize(4);
        assertThat(packed.binds().values().stream().distinct()).hasSize(1);
    }

    @Test
    void eachParameterServerGetsItsOwnNodeAndHalfTheWorkers() {
        // two ps apart (self-anti-affinity), each with workers: two buckets of a ps and two workers
        ClusterScenario.Builder scenario = threeNodes(3);
        tfJob(scenario, "ml/tf", 2, 4)
                .annotation("ml/tf", TaskTopology.AFFINITY, "ps,worker")
                .annotation("ml/tf", TaskTopology.ANTI_AFFINITY, "ps");

        SessionResult result = TestingScheduler.withConfig(WITH_TOPOLOGY).runOnce(scenario.build());

        assertThat(result.binds()).hasSize(6);
        assertThat(rolesByNode(result).values()).containsExactlyInAnyOrder("ps,worker,worker", "ps,worker,worker");
    }

    @Test
    void antiAffinityKeepsWorkersApartWhereBinpackWouldStackThem() {
        ClusterScenario.Builder scenario = threeNodes(4);
        tfJob(scenario, "ml/tf", 0, 3).annotation("ml/tf", TaskTopology.ANTI_AFFINITY, "worker");
        String binpack = """
                actions: "enqueue, allocate"
                tiers:
                - plugins:
                  - name: gang
                  - name: predicates
                  - name: binpack
                """;

        SessionResult stacked = TestingScheduler.withConfig(binpack).runOnce(scenario.build());
        SessionResult apart = TestingScheduler.withConfig(binpack + """
                  - name: task-topology
                    arguments:
                      task-topology.weight: 10
                """).runOnce(scenario.build());

        assertThat(stacked.binds().values().stream().distinct()).hasSize(1);
        assertThat(apart.binds().values().stream().distinct()).hasSize(3);
    }

    @Test
    void workersJoinTheNodeWhereTheirParameterServerAlreadyRuns() {
        ClusterScenario.Builder scenario = threeNodes(4);
        scenario.job("ml/tf", "default", 2, cpu(1), 0)
                .pod(pod("ml/tf", "tf-ps-0").role("ps").request(cpu(1)).runningOn("n3"))
                .pod(pod("ml/tf", "tf-worker-0").role("worker").request(cpu(1)))
                .pod(pod("ml/tf", "tf-worker-1").role("worker").request(cpu(1)))
                .annotation("ml/tf", TaskTopology.AFFINITY, "ps,worker");

        SessionResult result = TestingScheduler.withConfig(WITH_TOPOLOGY).runOnce(scenario.build());

        assertThat(result.binds()).containsOnly(
                Map.entry(new TaskId("ml", "tf-worker-0"), new NodeName("n3")),
                Map.entry(new TaskId("ml", "tf-worker-1"), new NodeName("n3")));
    }

    @Test
    void nodeScoreCountsTheBucketAndWhatMustBeLeftOutForItToFit() {
        // one bucket of a ps and three workers, 1 cpu each; n1 has room for 2 of the 4, n2 for all
        ClusterScenario.Builder scenario = ClusterScenario.builder().node("n1", cpu(2)).node("n2", cpu(4));
        tfJob(scenario, "ml/tf", 1, 3).annotation("ml/tf", TaskTopology.AFFINITY, "ps,worker");

        Map<NodeName, Double> scores = TestingScoring.scores("""
                actions: "allocate"
                tiers:
                - plugins:
                  - name: task-topology
                """, scenario.build(), new TaskId("ml", "tf-ps-0"));

        // n2: 4 pending tasks; n1: 4, less the 2 left out; times weight 1 x 100 / the bucket's 4
        assertThat(scores).containsOnly(Map.entry(new NodeName("n1"), 50.0), Map.entry(new NodeName("n2"), 100.0));
    }

    @Test
    void taskOrderPlacesTheNamedRoleFirstWithinItsBucket() {
        ClusterScenario.Builder scenario = threeNodes(4);
        tfJob(scenario, "ml/tf", 1, 2)
                .annotation("ml/tf", TaskTopology.AFFINITY, "ps,worker")
                .annotation("ml/tf", TaskTopology.TASK_ORDER, "worker,ps");
        scenario.job("ml/plain", "default", 1, cpu(1), 1);

        Session session = TestingScheduler.withConfig("""
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: task-topology
                """).runActions(scenario.build());
        List<String> order = session.jobs().stream()
                .flatMap(job -> job.tasks().stream())
                .sorted(session.taskOrder())
                .map(task -> task.id().name())
                .toList();

        assertThat(order).containsExactly("tf-worker-0", "tf-worker-1", "tf-ps-0", "plain-0");
    }

    @Test
    void aBadAnnotationIsAWarningNamingItAndTheJobIsStillScheduledWithoutTopology() {
        ClusterScenario.Builder scenario = threeNodes(4);
        tfJob(scenario, "ml/typo", 1, 2).annotation("ml/typo", TaskTopology.AFFINITY, "ps,wrker");
        tfJob(scenario, "ml/good", 1, 2).annotation("ml/good", TaskTopology.AFFINITY, "ps,worker");

        SessionResult result = TestingScheduler.withConfig(WITH_TOPOLOGY).runOnce(scenario.build());

        assertThat(result.jobs().get(JobId.parse("ml/typo")).warnings()).containsExactly(
                "PodGroup ml/typo: annotation volcano.sh/task-topology-affinity 'ps,wrker': 'wrker' is not a role of the job"
                        + " (its roles, from volcano.sh/task-spec: ps, worker); its task topology is ignored");
        assertThat(result.jobs().get(JobId.parse("ml/good")).warnings()).isEmpty();
        assertThat(result.binds()).hasSize(6);
        assertThat(result.binds().entrySet().stream()
                .filter(bind -> bind.getKey().name().startsWith("good-"))
                .map(Map.Entry::getValue)
                .distinct()).hasSize(1);
    }

    @Test
    void weightComesFromTheConfiguration() {
        ClusterScenario.Builder scenario = ClusterScenario.builder().node("n1", cpu(4));
        tfJob(scenario, "ml/tf", 1, 1).annotation("ml/tf", TaskTopology.AFFINITY, "ps,worker");

        Map<NodeName, Double> scores = TestingScoring.scores("""
                actions: "allocate"
                tiers:
                - plugins:
                  - name: task-topology
                    arguments:
                      task-topology.weight: 3
                """, scenario.build(), new TaskId("ml", "tf-ps-0"));

        assertThat(scores).containsOnly(Map.entry(new NodeName("n1"), 300.0));
    }

    private static ClusterScenario.Builder threeNodes(int cores) {
        return ClusterScenario.builder().node("n1", cpu(cores)).node("n2", cpu(cores)).node("n3", cpu(cores));
    }

    /** A TFJob's gang of {@code ps} parameter servers and {@code workers} workers, 1 cpu each, named as the operator names them. */
    private static ClusterScenario.Builder tfJob(ClusterScenario.Builder scenario, String id, int ps, int workers) {
        String name = JobId.parse(id).name();
        scenario.job(id, "default", ps + workers, cpu(1), 0);
        for (int i = 0; i < ps; i++) {
            scenario.pod(pod(id, name + "-ps-" + i).role("ps").request(cpu(1)));
        }
        for (int i = 0; i < workers; i++) {
            scenario.pod(pod(id, name + "-worker-" + i).role("worker").request(cpu(1)));
        }
        return scenario;
    }

    private static Map<NodeName, String> rolesByNode(SessionResult result) {
        return result.binds().entrySet().stream().collect(Collectors.groupingBy(Map.Entry::getValue, TreeMap::new,
                Collectors.mapping(bind -> bind.getKey().name().replaceAll("^[^-]+-(\\w+)-\\d+$", "$1"),
                        Collectors.collectingAndThen(Collectors.toList(), roles -> String.join(",", roles.stream().sorted().toList())))));
    }
}
