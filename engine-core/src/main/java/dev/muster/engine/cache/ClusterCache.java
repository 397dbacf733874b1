package dev.muster.engine.cache;


import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.yaml.Positions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;

/**
 * The cluster as the informers last reported it, and the binds in flight: pods Muster has decided to
 * bind that the informers do not yet show on a node. {@link #snapshot()} reads the objects with the
 * same converters as {@link ManifestReader}, so a live cycle and {@code what-if} on a dump of the same
 * objects see the same {@link dev.muster.engine.model.ClusterSnapshot}; a bind in flight is read as
 * Bound to its node, so a fast next cycle does not bind the pod again.
 *
 * <p>A bind in flight ends when the informer shows the pod on a node or deleted, when the binder
 * {@linkplain #forgetBind forgets} it after a failure, or after {@link #ASSUMED_BIND_TTL} without
 * confirmation (a lost watch event must not hold a node's resources for ever).
 *
 * <p>Until every kind's informer has {@linkplain #markSynced delivered its first list}, the cache is
 * not {@linkplain #unsyncedKinds() synced} and no cycle may read it: informers of different kinds
 * finish at different times, and a cycle that saw the PodGroups but only some of their pods would
 * report gangs short of pods that are only not seen yet.
 *
 * <p>Thread-safe: informer threads write, the scheduling thread takes snapshots and records binds.
 * Stored trees are never modified after they are put, so a snapshot converts them outside the lock.
 */
@ThreadSafe
public final class ClusterCache {
    /** How long a bind in flight counts as Bound without the informer confirming it. */
    public static final Duration ASSUMED_BIND_TTL = Duration.ofSeconds(30);

    private static final String SOURCE = "api-server";
    private static final Location LIVE = new Location(SOURCE, 0, OptionalInt.empty());

    private final ManifestReader reader;
    private final ImmutableSet<String> schedulerNames;
    private final PodConversions conversions = new PodConversions();
    private final Clock clock;

    @GuardedBy("this")
    private final Map<ResourceKind, TreeMap<String, ObjectNode>> objects = new EnumMap<>(ResourceKind.class);

    @GuardedBy("this")
    private final Map<TaskId, InFlight> inFlight = new HashMap<>();

    @GuardedBy("this")
    private final Set<ResourceKind> synced = EnumSet.noneOf(ResourceKind.class);

    /**
     * @param schedulerNames the {@code spec.schedulerName}s whose pods this scheduler places
     */
    public ClusterCache(Set<String> schedulerNames, Clock clock) {
        this.schedulerNames = ImmutableSet.copyOf(requireNonNull(schedulerNames, "schedulerNames is null"));
        this.reader = ManifestReader.live(this.schedulerNames);
        this.clock = requireNonNull(clock, "clock is null");
        for (ResourceKind kind : ResourceKind.values()) {
            objects.put(kind, new TreeMap<>());
        }
    }

    /** Adds or replaces an object the informer of {@code kind} reported; the tree must not change afterwards. */
    public synchronized void put(ResourceKind kind, ObjectNode object) {
        objects.get(kind).put(key(kind, object), object);
        if (kind == ResourceKind.POD) {
            confirm(object);
        }
    }

    public synchronized void remove(ResourceKind kind, ObjectNode object) {
        String key = key(kind, object);
        objects.get(kind).remove(key);
        if (kind == ResourceKind.POD) {
            inFlight.remove(taskId(object));
        }
    }

    /** The informer of {@code kind} has put every object of its first list, or the kind is not served. */
    public synchronized void markSynced(ResourceKind kind) {
        synced.add(requireNonNull(kind, "kind is null"));
    }

    /** The kinds (e.g. {@code pods}, {@code podgroups.scheduling.volcano.sh}) whose first list has not been delivered yet; a cycle runs only when there is none. */
    public synchronized ImmutableList<String> unsyncedKinds() {
        ImmutableList.Builder<String> kinds = ImmutableList.builder();
        for (ResourceKind kind : ResourceKind.values()) {
            if (!synced.contains(kind)) {
                kinds.add(kind.group().isEmpty() ? kind.plural() : kind.plural() + "." + kind.group());
            }
        }
        return kinds.build();
    }

    /** Records that Muster is binding a pod: until confirmed or forgotten, snapshots read it as Bound to {@code node}. */
    public synchronized void assumeBound(TaskId task, NodeName node) {
        requireNonNull(task, "task is null");
        requireNonNull(node, "node is null");
        inFlight.put(task, new InFlight(node, clock.instant()));
    }

    /** The bind failed: the pod is read as the informer reports it again. */
    public synchronized void forgetBind(TaskId task) {
        inFlight.remove(requireNonNull(task, "task is null"));
    }

    /** The binds in flight: decided, not yet seen by the informer. */
    public synchronized ImmutableMap<TaskId, NodeName> bindsInFlight() {
        ImmutableMap.Builder<TaskId, NodeName> binds = ImmutableMap.builder();
        inFlight.forEach((task, bind) -> binds.put(task, bind.node()));
        return binds.buildOrThrow();
    }

    /** Whether an object of this kind and name is stored, e.g. whether the {@code default} Queue exists. */
    synchronized boolean contains(ResourceKind kind, String namespace, String name) {
        return objects.get(kind).containsKey(namespace.isEmpty() ? name : namespace + "/" + name);
    }

    /** The cluster now, as one cycle sees it, with what is wrong with its objects. */
    public CacheSnapshot snapshot() {
        List<ManifestObject> read = new ArrayList<>();
        Map<JobId, StoredObject> podGroups = new TreeMap<>();
        Map<QueueName, StoredObject> queues = new TreeMap<>();
        synchronized (this) {
            expireInFlight();
            for (ResourceKind kind : ResourceKind.values()) {
                for (ObjectNode object : objects.get(kind).values()) {
                    ObjectNode body = kind == ResourceKind.POD ? withBindInFlight(object) : object;
                    String namespace = kind.namespaced() ? namespace(object) : "";
                    String name = object.path("metadata").path("name").asText();
                    read.add(new ManifestObject(LIVE, kind, namespace, name, body, Positions.NONE));
                    if (kind.podGroup()) {
                        podGroups.putIfAbsent(new JobId(namespace, name), StoredObject.of(kind.apiVersion(), object));
                    } else if (kind == ResourceKind.QUEUE) {
                        queues.put(new QueueName(name), StoredObject.of(kind.apiVersion(), object));
                    }
                }
            }
        }
        ManifestResult result = reader.build(read, new Problems(), List.of(SOURCE), conversions);
        return new CacheSnapshot(result.snapshot(), result.problems(), ImmutableMap.copyOf(podGroups),
                ImmutableMap.copyOf(queues), InvalidObjects.find(read, result, podGroups.keySet(), schedulerNames));
    }

    @GuardedBy("this")
    private ObjectNode withBindInFlight(ObjectNode pod) {
        InFlight bind = inFlight.get(taskId(pod));
        if (bind == null) {
            return pod;
        }
        ObjectNode copy = pod.deepCopy();
        copy.withObjectProperty("spec").put("nodeName", bind.node().value());
        return copy;
    }

    @GuardedBy("this")
    private void confirm(ObjectNode pod) {
        if (!pod.path("spec").path("nodeName").asText("").isEmpty()) {
            inFlight.remove(taskId(pod));
        }
    }

    @GuardedBy("this")
    private void expireInFlight() {
        Instant oldest = clock.instant().minus(ASSUMED_BIND_TTL);
        for (Iterator<InFlight> binds = inFlight.values().iterator(); binds.hasNext(); ) {
            if (binds.next().since().isBefore(oldest)) {
                binds.remove();
            }
        }
    }

    private static String key(ResourceKind kind, ObjectNode object) {
        String name = object.path("metadata").path("name").asText();
        return kind.namespaced() ? namespace(object) + "/" + name : name;
    }

    private static String namespace(ObjectNode object) {
        return Optional.of(object.path("metadata").path("namespace").asText("")).filter(text -> !text.isEmpty())
                .orElse("default");
    }

    private static TaskId taskId(ObjectNode pod) {
        return new TaskId(namespace(pod), pod.path("metadata").path("name").asText());
    }

    private record InFlight(NodeName node, Instant since) {}
}
