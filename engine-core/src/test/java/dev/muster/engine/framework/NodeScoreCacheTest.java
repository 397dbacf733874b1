package dev.muster.engine.framework;

import static dev.muster.engine.testing.ClusterScenario.cpuMemory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeScoreCacheTest {
    private static final String SCORERS = """
            actions: "allocate"
            tiers:
            - plugins:
              - name: gang
              - name: nodeorder
                arguments:
                  mostrequested.weight: 2
              - name: binpack
            """;

    private static ClusterSnapshot twoNodesAndAGang() {
        return ClusterScenario.builder()
                .node("n1", cpuMemory(8, 16))
                .node("n2", cpuMemory(8, 16))
                .queue("default", 1)
                .job("ns/gang", "default", 2, cpuMemory(2, 4), 2)
                .job("ns/other", "default", 1, cpuMemory(1, 1), 1)
                .build();
    }

    private static Session open(ClusterSnapshot snapshot) {
        return Session.open(snapshot, TestingScheduler.loader().parse("test.conf", SCORERS), TestingScheduler.CLOCK);
    }

    private static TaskState task(Session session, String id) {
        TaskId taskId = TaskId.parse(id);
        return session.jobs().stream()
                .flatMap(job -> job.tasks().stream())
                .filter(task -> task.id().equals(taskId))
                .findFirst()
                .orElseThrow();
    }

    private static double[] cachedScores(NodeScorer scorer, TaskState task, List<NodeState> nodes) {
        double[] scores = new double[nodes.size()];
        scorer.score(task, nodes, scores);
        return scores;
    }

    private static double[] freshScores(NodeScorer scorer, TaskState task, List<NodeState> nodes) {
        Map<NodeName, Double> byNode = scorer.score(task, nodes);
        return nodes.stream().mapToDouble(node -> byNode.getOrDefault(node.name(), 0.0)).toArray();
    }

    @Test
    void entryIsStaleOnceTheNodeChanges() {
        // given
        Session session = open(twoNodesAndAGang());
        NodeState n1 = session.node(new NodeName("n1")).orElseThrow();
        NodeState n2 = session.node(new NodeName("n2")).orElseThrow();
        TaskState task = task(session, "ns/gang-0");
        NodeScoreCache.Scores scores = NodeScoreCache.forSession(session).forKey(task.initRequest());
        scores.put(n1, 1.0);
        scores.put(n2, 2.0);

        // when
        session.newStatement().allocate(task, n1.name());

        // then
        assertThat(scores.isCurrent(n1)).isFalse();
        assertThat(scores.isCurrent(n2)).isTrue();
        assertThat(scores.get(n2)).isEqualTo(2.0);
    }

    @Test
    void keysDoNotShareScores() {
        // given
        Session session = open(twoNodesAndAGang());
        NodeState n1 = session.node(new NodeName("n1")).orElseThrow();
        NodeScoreCache cache = NodeScoreCache.forSession(session);

        // when
        cache.forKey(cpuMemory(2, 4)).put(n1, 1.0);

        // then
        assertThat(cache.forKey(cpuMemory(1, 1)).isCurrent(n1)).isFalse();
        assertThat(cache.forKey(cpuMemory(2, 4)).isCurrent(n1)).isTrue();
    }

    @Test
    void nodeThatChangedBetweenTwoTasksIsRescored() {
        // given: the first task of the gang is scored, which fills the caches
        Session session = open(twoNodesAndAGang());
        List<NodeState> nodes = session.nodes();
        TaskState first = task(session, "ns/gang-0");
        TaskState second = task(session, "ns/gang-1");
        List<NodeScorer> scorers = session.plugins().all(NodeScorer.class);
        assertThat(scorers).hasSize(2);
        double[][] before = new double[scorers.size()][];
        for (int i = 0; i < scorers.size(); i++) {
            before[i] = cachedScores(scorers.get(i), first, nodes);
        }

        // when: the first task lands on n1, then its twin is scored
        session.newStatement().allocate(first, new NodeName("n1"));

        // then: n1 scores differently now, exactly as a fresh computation says; n2 is unchanged
        for (int i = 0; i < scorers.size(); i++) {
            NodeScorer scorer = scorers.get(i);
            double[] after = cachedScores(scorer, second, nodes);
            assertThat(after).as("%s", scorer).containsExactly(freshScores(scorer, second, nodes));
            assertThat(after[0]).as("%s on the changed node", scorer).isNotEqualTo(before[i][0]);
            assertThat(after[1]).as("%s on the unchanged node", scorer).isEqualTo(before[i][1]);
        }
    }

    @Test
    void taskOfAnotherShapeIsNotGivenTheGangsScores() {
        // given
        Session session = open(twoNodesAndAGang());
        List<NodeState> nodes = session.nodes();
        session.newStatement().allocate(task(session, "ns/gang-0"), new NodeName("n1"));
        TaskState gang = task(session, "ns/gang-1");
        TaskState other = task(session, "ns/other-0");

        for (NodeScorer scorer : session.plugins().all(NodeScorer.class)) {
            // when
            cachedScores(scorer, gang, nodes);
            double[] scores = cachedScores(scorer, other, nodes);

            // then
            assertThat(scores).as("%s", scorer).containsExactly(freshScores(scorer, other, nodes));
        }
    }
}
