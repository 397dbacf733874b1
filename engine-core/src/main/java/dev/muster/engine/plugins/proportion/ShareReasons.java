package dev.muster.engine.plugins.proportion;

import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.queue.QueueAttributes;
import dev.muster.engine.queue.Quota;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The texts of proportion's reasons. A deserved share is what the other queues' demand leaves a queue,
 * so a reason that a share binds names those queues; with no other queue in demand the limit is the
 * cluster itself, and the reason says so rather than read as a quota. Concatenation, not
 * {@code String.format}: these reasons are written for every waiting job every cycle.
 */
final class ShareReasons {
    /** How many of the other queues a reason names, largest share first. */
    private static final int NAMED = 3;

    private ShareReasons() {}

    /**
     * {@code queue ml (weight 1) would go over its deserved share: nvidia.com/gpu 20 > 16; the rest is deserved by ...},
     * or the limit set on the queue that binds before its share ({@link #overLimit}).
     */
    static String overDeserved(Map<QueueName, QueueAttributes> queues, QueueAttributes attributes, Resources request, Resources total) {
        Optional<String> limit = overLimit(attributes, request, total);
        if (limit.isPresent()) {
            return limit.get();
        }
        Resources used = attributes.allocated().add(request);
        TreeSet<String> excess = Quota.insufficientOnRequested(used, attributes.deserved(), request);
        String others = othersDeserving(queues, attributes.name(), excess);
        if (others.isEmpty()) {
            return "queue " + attributes.name() + " would go over what the cluster has, and no other queue has demand: "
                    + Quota.describeExcess(excess, used, attributes.deserved());
        }
        return "queue " + attributes.name() + " (weight " + attributes.queue().weight() + ") would go over its deserved share: "
                + Quota.describeExcess(excess, used, attributes.deserved()) + "; the rest is deserved by " + others;
    }

    /**
     * {@code queue ml would go over what the cluster has: nvidia.com/gpu 40 > 32}, for a queue that may
     * borrow up to its real capability, or the limit set on the queue that binds ({@link #overLimit}).
     */
    static String overRealCapability(QueueAttributes attributes, Resources request, Resources total) {
        Optional<String> limit = overLimit(attributes, request, total);
        if (limit.isPresent()) {
            return limit.get();
        }
        Resources used = attributes.allocated().add(request);
        return "queue " + attributes.name() + " would go over what the cluster has: " + Quota.describeExcess(
                Quota.insufficientOnRequested(used, attributes.realCapability(), request), used, attributes.realCapability());
    }

    /**
     * The limit set on the queue that taking {@code request} would go over: its {@code spec.capability},
     * or, on a resource of which the other queues' guarantees keep part of the cluster, what they leave
     * it. Empty when neither binds: then only the room on the nodes or a deserved share can.
     */
    static Optional<String> overLimit(QueueAttributes attributes, Resources request, Resources total) {
        Resources used = attributes.allocated().add(request);
        TreeSet<String> overCapability = overCapability(attributes, used, request);
        if (!overCapability.isEmpty()) {
            return Optional.of("queue " + attributes.name() + " would go over its capability: "
                    + Quota.describeExcess(overCapability, used, attributes.capability()));
        }
        TreeSet<String> overGuarantees = new TreeSet<>();
        for (String resource : Quota.insufficientOnRequested(used, attributes.realCapability(), request)) {
            // a real capability short of the cluster, and not by the queue's capability: others' guarantees
            if (attributes.realCapability().get(resource) < total.get(resource) - Resources.EPSILON) {
                overGuarantees.add(resource);
            }
        }
        if (!overGuarantees.isEmpty()) {
            return Optional.of("queue " + attributes.name() + " would go over what the other queues' guarantees leave it: "
                    + Quota.describeExcess(overGuarantees, used, attributes.realCapability()));
        }
        return Optional.empty();
    }

    /** The resources the queue's {@code spec.capability} sets and {@code used} goes over (none without a capability). */
    private static TreeSet<String> overCapability(QueueAttributes attributes, Resources used, Resources request) {
        TreeSet<String> over = new TreeSet<>();
        if (attributes.queue().capability().isEmpty()) {
            return over;
        }
        Resources capability = attributes.capability();
        for (String resource : Quota.insufficientOnRequested(used, capability, request)) {
            if (capability.has(resource)) {
                over.add(resource);
            }
        }
        return over;
    }

    /**
     * {@code minResources cpu 8 would take queue ml over its capability ...: cpu 20 > 16}; the limit is
     * named for what it is: the queue's {@code spec.capability}, the cluster less the other queues'
     * guarantees, or, with neither, the cluster itself.
     */
    static String admissionShortfall(QueueAttributes attributes, Resources minimum, Resources total) {
        Resources future = attributes.withAdmitted(minimum);
        TreeSet<String> shortfall = attributes.admissionShortfall(minimum);
        TreeSet<String> overCapability = overCapability(attributes, future, minimum);
        String limit;
        Resources bound = attributes.realCapability();
        if (!overCapability.isEmpty()) {
            limit = " over its capability";
            shortfall = overCapability;
            bound = attributes.capability();
        } else if (!total.lessEqualOnDimensionsOf(attributes.realCapability(), minimum)) {
            limit = " over what the other queues' guarantees leave it";
        } else {
            limit = " over what the cluster has";
        }
        return "minResources (" + minimum + ") would take queue " + attributes.name() + limit
                + ", counting what it runs and has admitted: " + Quota.describeExcess(shortfall, future, bound);
    }

    /**
     * Whether no limit set on the queue (its capability, what the other queues' guarantees leave it)
     * keeps a job of this minimum out: then the cluster's room, or the share of it the other queues'
     * demand leaves, does.
     */
    static boolean noLimitRefuses(QueueAttributes attributes, Resources minimum, Resources total) {
        if (attributes.admissionShortfall(minimum).isEmpty()) {
            return true;
        }
        return overCapability(attributes, attributes.withAdmitted(minimum), minimum).isEmpty()
                && total.lessEqualOnDimensionsOf(attributes.realCapability(), minimum);
    }

    /** {@code minResources cpu 8 would take queue ml to cpu 20 > its deserved share 16}, naming who deserves the rest. */
    static String deservedShortfall(Map<QueueName, QueueAttributes> queues, QueueAttributes attributes, Resources minimum) {
        Resources future = attributes.withAdmitted(minimum);
        TreeSet<String> shortfall = attributes.deservedShortfall(minimum);
        String others = othersDeserving(queues, attributes.name(), shortfall);
        if (others.isEmpty()) {
            return "minResources (" + minimum + ") would take queue " + attributes.name()
                    + " over what the cluster has, and no other queue has demand, counting what it runs and has admitted: "
                    + Quota.describeExcess(shortfall, future, attributes.deserved());
        }
        return "minResources (" + minimum + ") would take queue " + attributes.name() + " (weight " + attributes.queue().weight()
                + ") over its deserved share, counting what it runs and has admitted: "
                + Quota.describeExcess(shortfall, future, attributes.deserved()) + "; the rest is deserved by " + others;
    }

    /**
     * The other queues that deserve some of the resources, largest share of the first resource first:
     * {@code queue production (weight 2, nvidia.com/gpu 24)}; empty when none does.
     */
    static String othersDeserving(Map<QueueName, QueueAttributes> queues, QueueName self, TreeSet<String> resources) {
        List<QueueAttributes> others = new ArrayList<>();
        if (resources.isEmpty()) {
            return "";
        }
        for (QueueAttributes other : queues.values()) {
            if (!other.name().equals(self) && resources.stream().anyMatch(resource -> other.deserved().get(resource) >= Resources.EPSILON)) {
                others.add(other);
            }
        }
        if (others.isEmpty()) {
            return "";
        }
        String first = resources.first();
        others.sort(Comparator.comparingDouble((QueueAttributes other) -> -other.deserved().get(first))
                .thenComparing(QueueAttributes::name));
        StringBuilder text = new StringBuilder();
        for (QueueAttributes other : others.subList(0, Math.min(NAMED, others.size()))) {
            text.append(text.length() == 0 ? "" : ", ").append("queue ").append(other.name()).append(" (weight ")
                    .append(other.queue().weight());
            for (String resource : resources) {
                text.append(", ").append(resource).append(' ').append(other.deserved().format(resource));
            }
            text.append(')');
        }
        if (others.size() > NAMED) {
            text.append(" and ").append(others.size() - NAMED).append(" more");
        }
        return text.toString();
    }
}
