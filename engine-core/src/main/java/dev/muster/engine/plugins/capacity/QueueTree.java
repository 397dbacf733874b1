package dev.muster.engine.plugins.capacity;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.queue.JobUsage;
import dev.muster.engine.queue.Quota;
import dev.muster.engine.queue.QueueAttributes;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The capacity plugin's queues for one session, with Volcano's two ways of building them. Flat: the
 * queues that have jobs, each deserving its {@code spec.deserved} capped by its real capability.
 * Hierarchical: every queue, linked through {@code spec.parent} (default {@code root}) into a tree
 * whose root is unlimited unless it sets a capability; children inherit unset capabilities, get their
 * real capability from their parent's, and a job's usage counts for its queue and every ancestor.
 * A hierarchy that cannot be built (no root, a missing parent, a job in a non-leaf queue) is not
 * ready, and the plugin then rejects everything.
 *
 * <p>Not thread-safe: it lives and dies with the session's plugin.
 */
final class QueueTree {
    private static final Logger log = LoggerFactory.getLogger(QueueTree.class);

    private final Session session;
    private final Map<QueueName, QueueAttributes> queues = new TreeMap<>();
    private final Map<QueueName, List<QueueName>> ancestors = new TreeMap<>();
    private final Map<QueueName, Set<QueueName>> children = new TreeMap<>();
    private boolean ready = true;

    private QueueTree(Session session) {
        this.session = session;
    }

    static QueueTree flat(Session session) {
        QueueTree tree = new QueueTree(session);
        Resources total = session.totalResource();
        Resources totalGuarantee = Resources.EMPTY;
        for (Queue queue : session.queues().values()) {
            totalGuarantee = totalGuarantee.add(queue.guarantee());
        }
        for (JobState job : session.jobs()) {
            Optional<Queue> queue = session.queue(job.queue());
            if (queue.isEmpty()) {
                continue;
            }
            QueueAttributes attributes = tree.queues.get(job.queue());
            if (attributes == null) {
                Optional<Resources> capability = QueueAttributes.capability(queue.get());
                attributes = new QueueAttributes(queue.get(), capability.orElse(Resources.EMPTY),
                        QueueAttributes.realCapability(total, totalGuarantee, queue.get().guarantee(), capability),
                        queue.get().deserved().orElse(Resources.EMPTY));
                tree.queues.put(job.queue(), attributes);
            }
            attributes.add(JobUsage.of(job));
        }
        for (QueueAttributes attributes : tree.queues.values()) {
            attributes.setDeserved(attributes.deserved().min(attributes.realCapability(), Resources.Missing.INFINITY)
                    .max(attributes.guarantee()));
            updateShare(attributes);
        }
        return tree;
    }

    static QueueTree hierarchical(Session session) {
        QueueTree tree = new QueueTree(session);
        tree.ready = tree.buildHierarchy();
        return tree;
    }

    private boolean buildHierarchy() {
        for (Queue queue : session.queues().values()) {
            if (!queues.containsKey(queue.name())) {
                queues.put(queue.name(), newAttributes(queue));
                if (!linkToParent(queue, new HashSet<>())) {
                    return false;
                }
            }
        }
        for (JobState job : session.jobs()) {
            QueueAttributes attributes = queues.get(job.queue());
            if (attributes == null) {
                continue;
            }
            if (!isLeaf(job.queue())) {
                log.warn("job={} is in queue={}, which is not a leaf queue: the capacity plugin rejects everything this cycle",
                        job.id(), job.queue());
                return false;
            }
            JobUsage usage = JobUsage.of(job);
            attributes.add(usage);
            ancestors(job.queue()).forEach(ancestor -> ancestor.add(usage));
        }
        QueueAttributes root = queues.get(Queue.ROOT);
        if (root == null) {
            log.warn("queue hierarchy has no root queue: the capacity plugin rejects everything this cycle");
            return false;
        }
        if (Quota.isEmpty(root.capability())) {
            root.setCapability(unlimited(session.totalResource()));
        }
        root.setRealCapability(root.capability());
        distribute(root);
        queues.values().forEach(QueueTree::updateShare);
        return true;
    }

    private static QueueAttributes newAttributes(Queue queue) {
        return new QueueAttributes(queue, queue.capability().orElse(Resources.EMPTY), Resources.EMPTY,
                queue.deserved().orElse(Resources.EMPTY));
    }

    /**
     * Links a queue under its parent, first linking the parent when it is not known yet. As in Volcano,
     * a parent that is already known is not walked again, so a queue cycle is not an error here: its
     * queues are simply unreachable from the root and get no capability.
     */
    private boolean linkToParent(Queue queue, Set<QueueName> visiting) {
        if (queue.name().equals(Queue.ROOT)) {
            return true;
        }
        if (!visiting.add(queue.name())) {
            log.warn("queue={} is in a cycle of parents", queue.name());
            return false;
        }
        QueueName parentName = queue.parent().orElse(Queue.ROOT);
        Optional<Queue> parent = session.queue(parentName);
        if (parent.isEmpty()) {
            log.warn("queue={} has parent {}, which does not exist: the capacity plugin rejects everything this cycle",
                    queue.name(), parentName);
            return false;
        }
        if (!queues.containsKey(parentName)) {
            queues.put(parentName, newAttributes(parent.get()));
            if (!linkToParent(parent.get(), visiting)) {
                return false;
            }
        }
        children.computeIfAbsent(parentName, name -> new TreeSet<>()).add(queue.name());
        ancestors.put(queue.name(), ImmutableList.<QueueName>builder()
                .addAll(ancestors.getOrDefault(parentName, List.of())).add(parentName).build());
        visiting.remove(queue.name());
        return true;
    }

    /** Cpu and memory unlimited, and every scalar the cluster has, as Volcano's root capability. */
    private static Resources unlimited(Resources total) {
        TreeMap<String, Double> scalars = new TreeMap<>();
        total.scalars().keySet().forEach(name -> scalars.put(name, (double) Long.MAX_VALUE));
        return new Resources(Double.MAX_VALUE, Double.MAX_VALUE, ImmutableSortedMap.copyOf(scalars));
    }

    /** Passes a queue's capability down to its children, then recurses (Volcano's {@code checkHierarchicalQueue}). */
    private void distribute(QueueAttributes parent) {
        Resources totalGuarantee = Resources.EMPTY;
        Resources totalDeserved = Resources.EMPTY;
        List<QueueAttributes> kids = children(parent.name());
        for (QueueAttributes child : kids) {
            child.setDeserved(child.deserved().max(child.guarantee()));
            totalDeserved = totalDeserved.add(child.deserved());
            totalGuarantee = totalGuarantee.add(child.guarantee());
            child.setCapability(inherit(child.capability(), parent.capability()));
            if (!child.capability().lessEqual(parent.capability(), Resources.Missing.INFINITY)) {
                log.warn("queue={}: capability <{}> exceeds its parent {}'s <{}>; the parent's limit applies",
                        child.name(), child.capability(), parent.name(), parent.capability());
            }
        }
        if (parent.name().equals(Queue.ROOT)) {
            parent.setGuarantee(totalGuarantee);
            parent.setDeserved(totalDeserved);
        }
        for (QueueAttributes child : kids) {
            child.setRealCapability(Quota.exceededPart(parent.realCapability(), totalGuarantee).add(child.guarantee())
                    .min(child.capability(), Resources.Missing.INFINITY));
        }
        if (parent.deserved().lessPartly(totalDeserved)) {
            log.warn("queue={}: its children deserve <{}>, more than its <{}>", parent.name(), totalDeserved, parent.deserved());
        }
        for (QueueAttributes child : kids) {
            distribute(child);
        }
    }

    /** A child's capability with unset cpu, memory and scalars taken from its parent's. */
    private static Resources inherit(Resources child, Resources parent) {
        TreeMap<String, Double> scalars = new TreeMap<>(child.scalars());
        parent.scalars().forEach(scalars::putIfAbsent);
        return new Resources(
                child.milliCpu() <= 0 ? parent.milliCpu() : child.milliCpu(),
                child.memory() <= 0 ? parent.memory() : child.memory(),
                ImmutableSortedMap.copyOf(scalars));
    }

    /** A queue without a deserved share is best effort: its share is 1 however much it holds. */
    static void updateShare(QueueAttributes attributes) {
        attributes.setShare(Quota.isEmpty(attributes.deserved()) ? 1 : Quota.share(attributes.allocated(), attributes.deserved()));
    }

    boolean ready() {
        return ready;
    }

    Optional<QueueAttributes> get(QueueName queue) {
        return Optional.ofNullable(queues.get(queue));
    }

    Collection<QueueAttributes> all() {
        return queues.values();
    }

    /** Whether the queue has no children; in flat mode every queue is a leaf. */
    boolean isLeaf(QueueName queue) {
        return children.getOrDefault(queue, Set.of()).isEmpty();
    }

    /** The queue's ancestors, root first; empty in flat mode. */
    List<QueueName> ancestorNames(QueueName queue) {
        return ancestors.getOrDefault(queue, List.of());
    }

    /** The attributes of the queue's ancestors, root first. */
    List<QueueAttributes> ancestors(QueueName queue) {
        return ancestorNames(queue).stream().map(queues::get).toList();
    }

    private List<QueueAttributes> children(QueueName queue) {
        return children.getOrDefault(queue, Set.of()).stream().map(queues::get).toList();
    }
}
