package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.LinkedListMultimap;
import com.google.common.collect.ListMultimap;
import dev.muster.engine.cache.PodGroupConverter.ConvertedJob;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.HyperNode;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads Kubernetes manifests (multi-document YAML, JSON, {@code kind: List}, folders of them) into a
 * {@link ClusterSnapshot}, as Volcano's scheduler cache would see that cluster.
 *
 * <p>Reads {@code v1} Node and Pod, {@code scheduling.k8s.io/v1} PriorityClass,
 * {@code scheduling.volcano.sh/v1beta1} PodGroup and Queue, {@code scheduling.x-k8s.io/v1alpha1}
 * PodGroup, {@code scheduling.k8s.io/v1alpha2} PodGroup (the Workload API) and
 * {@code topology.volcano.sh/v1alpha1} HyperNode. Whatever is wrong with one object is
 * reported as a {@link ManifestProblem} and the rest is still read: a bad Node, Pod, PriorityClass or
 * HyperNode is left out; a bad Queue is kept with defaults for its bad fields; a bad PodGroup is kept
 * with the problem recorded on its job, which keeps it pending. Of two objects with the same kind,
 * namespace and name, the first is kept. A {@code default} queue is added when the manifests have none,
 * as Volcano always has one.
 *
 * <p>Stateless and thread-safe.
 */
public final class ManifestReader {
    private final PodConverter podConverter;
    private final ManifestParser parser;
    private final ImmutableSet<String> schedulerNames;
    private final boolean live;

    /** @param schedulerNames the {@code spec.schedulerName}s whose pods this scheduler places */
    public ManifestReader(Set<String> schedulerNames) {
        this(schedulerNames, false);
    }

    /** A reader of what a running cluster's informers saw (see the constructor below). */
    public static ManifestReader live(Set<String> schedulerNames) {
        return new ManifestReader(schedulerNames, true);
    }

    /**
     * @param live the objects come from a running cluster, where a PodGroup is created before its pods
     *     and finished pods outlive their deleted PodGroup: neither is worth a warning there, while in
     *     files they usually mean a mistake
     */
    private ManifestReader(Set<String> schedulerNames, boolean live) {
        this(schedulerNames, live, new ManifestParser());
    }

    private ManifestReader(Set<String> schedulerNames, boolean live, ManifestParser parser) {
        requireNonNull(schedulerNames, "schedulerNames is null");
        this.schedulerNames = ImmutableSet.copyOf(schedulerNames);
        this.podConverter = new PodConverter(this.schedulerNames);
        this.live = live;
        this.parser = parser;
    }

    /**
     * This reader, but skipping objects of {@code apiVersion}/{@code kind} without warning that the kind is
     * unknown: for a kind that another reader takes from the same files (what-if's Argo Workflows).
     */
    public ManifestReader readElsewhere(String apiVersion, String kind) {
        return new ManifestReader(schedulerNames, live, new ManifestParser(Set.of(ManifestParser.kindKey(apiVersion, kind))));
    }

    /**
     * Reads files and folders (recursively, {@code *.yaml}, {@code *.yml}, {@code *.json}, sorted by path).
     *
     * A document that cannot be parsed (not UTF-8, not YAML or JSON) is a problem of that document.
     *
     * @throws ManifestException when a path does not exist or a file cannot be read at all
     */
    public ManifestResult read(List<Path> paths) {
        Problems problems = new Problems();
        List<ManifestObject> objects = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        for (Path file : ManifestFiles.expand(paths)) {
            sources.add(file.toString());
            objects.addAll(parser.parse(file.toString(), ManifestFiles.read(file), problems));
        }
        return build(objects, problems, sources);
    }

    /**
     * Reads one text, as if it were a file named {@code source}; a source ending in {@code .json} is JSON.
     */
    public ManifestResult read(String source, String text) {
        requireNonNull(source, "source is null");
        requireNonNull(text, "text is null");
        Problems problems = new Problems();
        return build(parser.parse(source, text.getBytes(StandardCharsets.UTF_8), problems), problems, List.of(source));
    }

    /** The snapshot of objects already parsed; problems are sorted by {@code sources}. */
    ManifestResult build(List<ManifestObject> objects, Problems problems, List<String> sources) {
        return build(objects, problems, sources, new PodConversions());
    }

    /**
     * The snapshot of objects already parsed, e.g. from informers, with the pods {@code conversions} kept
     * from the previous snapshot; problems are sorted by {@code sources}.
     */
    ManifestResult build(List<ManifestObject> objects, Problems problems, List<String> sources, PodConversions conversions) {
        ListMultimap<ResourceKind, ManifestObject> byKind = unique(KubernetesNames.valid(objects, problems), problems);
        PriorityClasses priorityClasses = PriorityClasses.read(byKind.get(ResourceKind.PRIORITY_CLASS), problems);

        TreeMap<NodeName, ClusterNode> nodes = new TreeMap<>();
        for (ManifestObject object : byKind.get(ResourceKind.NODE)) {
            NodeConverter.convert(object, problems).ifPresent(node -> nodes.put(node.name(), node));
        }
        TreeMap<QueueName, Queue> queues = new TreeMap<>();
        for (ManifestObject object : byKind.get(ResourceKind.QUEUE)) {
            Queue queue = QueueConverter.convert(object, problems);
            queues.put(queue.name(), queue);
        }
        queues.computeIfAbsent(Queue.DEFAULT, name -> QueueConverter.defaultQueue());
        List<HyperNode> hyperNodes = new ArrayList<>();
        Map<String, ManifestObject> hyperNodeObjects = new HashMap<>();
        for (ManifestObject object : byKind.get(ResourceKind.HYPER_NODE)) {
            HyperNodeConverter.convert(object, problems).ifPresent(hyperNode -> {
                hyperNodes.add(hyperNode);
                hyperNodeObjects.put(hyperNode.name(), object);
            });
        }
        hyperNodes.sort(Comparator.comparing(HyperNode::name));
        TopologyCheck.check(hyperNodes, hyperNodeObjects, problems);
        List<ConvertedJob> podGroups = new ArrayList<>();
        for (ResourceKind kind : List.of(ResourceKind.VOLCANO_POD_GROUP, ResourceKind.COSCHEDULING_POD_GROUP)) {
            for (ManifestObject object : byKind.get(kind)) {
                podGroups.add(PodGroupConverter.convert(object, priorityClasses, problems));
            }
        }
        for (ManifestObject object : byKind.get(ResourceKind.WORKLOAD_POD_GROUP)) {
            podGroups.add(WorkloadPodGroupConverter.convert(object, priorityClasses, problems));
        }
        List<ConvertedPod> pods = new ArrayList<>();
        for (ManifestObject object : byKind.get(ResourceKind.POD)) {
            conversions.convert(podConverter, object, problems).ifPresent(pods::add);
        }
        conversions.snapshotDone();
        JobAssembler.Assembled jobs = JobAssembler.assemble(podGroups, pods, queues.keySet(), priorityClasses, problems, live);

        ClusterSnapshot snapshot = new ClusterSnapshot(
                ImmutableSortedMap.copyOf(nodes),
                jobs.jobs(),
                ImmutableSortedMap.copyOf(queues),
                jobs.otherTasks(),
                priorityClasses.values(),
                ImmutableList.copyOf(hyperNodes));
        return new ManifestResult(snapshot, inReadingOrder(problems.list(), sources));
    }

    /** Objects by kind, in reading order; of two with the same kind, namespace and name, the first. */
    private static ListMultimap<ResourceKind, ManifestObject> unique(List<ManifestObject> objects, Problems problems) {
        ListMultimap<ResourceKind, ManifestObject> byKind = LinkedListMultimap.create();
        Map<String, ManifestObject> seen = new HashMap<>();
        for (ManifestObject object : objects) {
            // the PodGroup kinds share one key: they would be the same job
            String key = object.kind().kind() + " " + object.displayName();
            ManifestObject first = seen.putIfAbsent(key, object);
            if (first == null) {
                byKind.put(object.kind(), object);
            } else {
                problems.add(object.error("", "already defined at " + first.location() + "; this one is ignored"));
            }
        }
        return byKind;
    }

    /** Problems sorted by where they are, so they read like the files; each object's keep their order. */
    private static ImmutableList<ManifestProblem> inReadingOrder(List<ManifestProblem> problems, List<String> sources) {
        Map<String, Integer> sourceOrder = new HashMap<>();
        sources.forEach(source -> sourceOrder.putIfAbsent(source, sourceOrder.size()));
        Comparator<ManifestProblem> order = Comparator
                .comparingInt((ManifestProblem problem) -> sourceOrder.getOrDefault(problem.source(), sourceOrder.size()))
                .thenComparingInt(ManifestProblem::document)
                .thenComparingInt(problem -> problem.item().orElse(-1));
        return problems.stream().sorted(order).collect(ImmutableList.toImmutableList());
    }
}
