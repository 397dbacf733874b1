package dev.muster.engine.framework;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-node scores of one scorer, remembered for as long as the node does not change: a scorer whose
 * score of a node reads only some fields of the task (its key: the request, say) and that node's own
 * state asks here first. The tasks of a gang are alike and a task changes one node, so most nodes are
 * scored once per task shape instead of once per task.
 *
 * <p>An entry is current while the node's {@link NodeState#version() version} is the one it was
 * scored at. The few most recently used keys are kept. Not thread-safe: one per plugin instance, which
 * lives and dies with its session.
 */
public final class NodeScoreCache {
    /** How many task keys are kept; gangs are placed one after another, so a few suffice. */
    static final int MAX_KEYS = 8;

    private final int nodeCount;
    private final Map<Object, Scores> byKey = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Scores> eldest) {
            return size() > MAX_KEYS;
        }
    };

    public NodeScoreCache(int nodeCount) {
        checkArgument(nodeCount >= 0, "nodeCount is negative: %s", nodeCount);
        this.nodeCount = nodeCount;
    }

    /** Builds a cache for the nodes of a session. */
    public static NodeScoreCache forSession(Session session) {
        return new NodeScoreCache(session.nodes().size());
    }

    /**
     * The scores for tasks with this key. Look it up once per task, then read and write per node. The
     * key must have value equality and hold everything of the task that the score reads.
     */
    public Scores forKey(Object key) {
        requireNonNull(key, "key is null");
        Scores scores = byKey.get(key);
        if (scores == null) {
            scores = new Scores(nodeCount);
            byKey.put(key, scores);
        }
        return scores;
    }

    /** The scores of every node for one task key, each valid at the node version it was taken at. */
    public static final class Scores {
        private final double[] scores;
        private final int[] versions;

        private Scores(int nodeCount) {
            this.scores = new double[nodeCount];
            this.versions = new int[nodeCount];
            // no node version is negative, so every entry starts stale
            Arrays.fill(versions, -1);
        }

        /** Whether the node's score is known for its current version. */
        public boolean isCurrent(NodeState node) {
            return versions[node.index()] == node.version();
        }

        /** The remembered score; only meaningful when {@link #isCurrent} is true. */
        public double get(NodeState node) {
            return scores[node.index()];
        }

        /** Remembers the node's score at its current version, and returns it. */
        public double put(NodeState node, double score) {
            scores[node.index()] = score;
            versions[node.index()] = node.version();
            return score;
        }
    }
}
