package dev.muster.engine.plugins.predicates;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.framework.FitFailure;
import dev.muster.engine.framework.NodeFilter;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.NodeSelectorTerm;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.Taint;
import dev.muster.engine.model.Toleration;
import java.util.Map;
import java.util.Optional;

/**
 * kube-scheduler's filters that batch pods need: the node's pod count, unschedulable nodes,
 * nodeSelector and required node affinity, taints and tolerations. Host ports, inter-pod affinity,
 * volume and topology-spread filters are not implemented yet (their switches are accepted).
 */
public final class PredicatesPlugin implements Plugin, NodeFilter {
    public static final String NAME = "predicates";

    private static final Taint UNSCHEDULABLE_TAINT = new Taint("node.kubernetes.io/unschedulable", "", "NoSchedule");

    private final PredicatesArgs args;

    PredicatesPlugin(PredicatesArgs args) {
        this.args = requireNonNull(args, "args is null");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<FitFailure> filter(TaskState task, NodeState nodeState) {
        ClusterNode node = nodeState.node();
        if (nodeState.taskCount() >= node.maxPods()) {
            return Optional.of(FitFailure.resolvable("node(s) had too many pods"));
        }
        Placement placement = task.task().placement();
        if (node.unschedulable() && !tolerated(placement, UNSCHEDULABLE_TAINT)) {
            return Optional.of(FitFailure.unresolvable("node(s) were unschedulable"));
        }
        if (args.nodeAffinity() && !matchesAffinity(placement, node)) {
            return Optional.of(FitFailure.unresolvable("node(s) didn't match Pod's node affinity/selector"));
        }
        if (args.taintToleration()) {
            for (Taint taint : node.taints()) {
                if ((taint.effect().equals("NoSchedule") || taint.effect().equals("NoExecute")) && !tolerated(placement, taint)) {
                    return Optional.of(FitFailure.unresolvable("node(s) had untolerated taint {" + taint.key()
                            + (taint.value().isEmpty() ? "" : ": " + taint.value()) + "}"));
                }
            }
        }
        return Optional.empty();
    }

    /** The verdict reads the task's placement, and of the node its pod count, labels and taints. */
    @Override
    public Optional<Object> filterKey(TaskState task) {
        return Optional.of(task.task().placement());
    }

    private static boolean tolerated(Placement placement, Taint taint) {
        for (Toleration toleration : placement.tolerations()) {
            if (toleration.tolerates(taint)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesAffinity(Placement placement, ClusterNode node) {
        if (placement.nodeSelector().isEmpty() && placement.requiredNodeAffinity().isEmpty()) {
            return true;
        }
        for (Map.Entry<String, String> entry : placement.nodeSelector().entrySet()) {
            if (!entry.getValue().equals(node.labels().get(entry.getKey()))) {
                return false;
            }
        }
        if (placement.requiredNodeAffinity().isEmpty()) {
            return true;
        }
        Map<String, String> fields = ImmutableMap.of("metadata.name", node.name().value());
        for (NodeSelectorTerm term : placement.requiredNodeAffinity()) {
            if (term.matches(node.labels(), fields)) {
                return true;
            }
        }
        return false;
    }

    /** Builds the plugin from its switches. */
    public static final class Factory implements PluginFactory<PredicatesArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<PredicatesArgs> argsType() {
            return PredicatesArgs.class;
        }

        @Override
        public PredicatesArgs defaultArgs() {
            return PredicatesArgs.DEFAULTS;
        }

        @Override
        public Plugin create(PredicatesArgs args, Session session) {
            return new PredicatesPlugin(args);
        }
    }
}
