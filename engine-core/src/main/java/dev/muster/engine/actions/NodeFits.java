package dev.muster.engine.actions;

import dev.muster.engine.framework.NodeState;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembered answers to "does the task fit this node, and on its idle or only its future idle?" for
 * tasks with equal keys (their init request and every filter's key), each valid while the node's
 * {@link NodeState#version() version} stays the one it was checked at: the tasks of a gang are alike
 * and a placement changes one node, so most checks are done once per task shape instead of per task.
 * The few most recently used keys are kept. Not thread-safe: one per {@link NodePicker}.
 */
final class NodeFits {
    enum Fit {
        /** The filters or the future idle say no. */
        NONE,
        /** Fits the node's idle resources: allocated now. */
        IDLE,
        /** Fits only once releasing resources are gone: pipelined. */
        FUTURE
    }

    private static final int MAX_KEYS = 8;
    private static final Fit[] FITS = Fit.values();

    private final int nodeCount;
    private final Map<Object, Verdicts> byKey = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Verdicts> eldest) {
            return size() > MAX_KEYS;
        }
    };

    NodeFits(int nodeCount) {
        this.nodeCount = nodeCount;
    }

    Verdicts forKey(Object key) {
        Verdicts verdicts = byKey.get(key);
        if (verdicts == null) {
            verdicts = new Verdicts(nodeCount);
            byKey.put(key, verdicts);
        }
        return verdicts;
    }

    /** The verdicts of every node for one task key. */
    static final class Verdicts {
        private final byte[] fits;
        private final int[] versions;

        private Verdicts(int nodeCount) {
            this.fits = new byte[nodeCount];
            this.versions = new int[nodeCount];
            // no node version is negative, so every entry starts stale
            Arrays.fill(versions, -1);
        }

        /** The remembered verdict, or null when the node changed since (or was never checked). */
        Fit get(NodeState node) {
            return versions[node.index()] == node.version() ? FITS[fits[node.index()]] : null;
        }

        Fit put(NodeState node, Fit fit) {
            fits[node.index()] = (byte) fit.ordinal();
            versions[node.index()] = node.version();
            return fit;
        }
    }
}
