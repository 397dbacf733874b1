package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Maps;
import dev.muster.engine.cache.ResourceKind;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.binding.RetryPolicy;
import dev.muster.runtime.controller.EveryChange;
import dev.muster.runtime.controller.KeyedWorkQueue;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import dev.muster.runtime.controller.TermInformers;
import dev.muster.runtime.controller.TermThreads;
import dev.muster.runtime.informers.KubernetesResources;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One leader term of the bridge: informers on TFJobs and PyTorchJobs, on both kinds of PodGroup, on
 * Volcano's Queues and on the pods the operator labels with their job, and a work queue of jobs. A change
 * to a job, to a PodGroup or pod it owns, or to a Queue queues the job; processing reads it, plans and
 * writes the plan. Nothing outlives {@link #stop()}.
 */
final class TrainingJobTerm implements TermController.Term {
    static final ResourceDefinitionContext COSCHEDULING_POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup(ResourceKind.COSCHEDULING_POD_GROUP.group()).withVersion(ResourceKind.COSCHEDULING_POD_GROUP.version())
            .withKind("PodGroup").withPlural("podgroups").withNamespaced(true).build();
    private static final Logger log = LoggerFactory.getLogger(TrainingJobTerm.class);
    private static final String BY_JOB = "job";
    private static final int WORKERS = 2;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A job in the work queue. */
    record JobKey(TrainingKind kind, String namespace, String name) {
        JobKey {
            requireNonNull(kind, "kind is null");
            requireNonNull(namespace, "namespace is null");
            requireNonNull(name, "name is null");
        }

        String cacheKey() {
            return namespace + "/" + name;
        }
    }

    private final Clock clock;
    private final ImmutableMap<TrainingKind, SharedIndexInformer<GenericKubernetesResource>> jobs;
    private final SharedIndexInformer<GenericKubernetesResource> volcanoPodGroups;
    private final SharedIndexInformer<GenericKubernetesResource> coschedulingPodGroups;
    private final SharedIndexInformer<GenericKubernetesResource> queues;
    private final SharedIndexInformer<Pod> pods;
    private final TermInformers informers;
    /** The value of each, for the resources of an elastic job's gang. */
    private final SharedIndexInformer<GenericKubernetesResource> priorityClasses;
    private final TermThreads threads = new TermThreads("muster-kubeflow-bridge", WORKERS);
    private final KeyedWorkQueue<JobKey, String> queue;
    private final TrainingJobWriter writer;

    TrainingJobTerm(KubernetesClient client, SharedInformers shared, Clock clock) {
        requireNonNull(client, "client is null");
        this.clock = requireNonNull(clock, "clock is null");
        // in the order they start: what a job's processing reads has listed before the jobs
        this.informers = new TermInformers(shared, "kubeflow bridge");
        this.queues = informers.resources(KubernetesResources.QUEUES);
        this.volcanoPodGroups = informers.resources(KubernetesResources.VOLCANO_POD_GROUPS);
        this.coschedulingPodGroups = informers.resources(COSCHEDULING_POD_GROUPS);
        this.priorityClasses = informers.resources(KubernetesResources.PRIORITY_CLASSES);
        this.pods = informers.pods(KubeflowApi.JOB_NAME_LABEL);
        this.jobs = Maps.toMap(List.of(TrainingKind.values()), kind -> informers.resources(kind.context()));
        pods.addIndexers(Map.of(BY_JOB, pod -> List.of(pod.getMetadata().getNamespace() + "/"
                + pod.getMetadata().getLabels().get(KubeflowApi.JOB_NAME_LABEL))));
        this.writer = new TrainingJobWriter(client, EventRecorder.connect(client, RetryPolicy.DEFAULT, clock, TrainingJobWriter.COMPONENT),
                clock);
        this.queue = new KeyedWorkQueue<>("kubeflow-job", (key, request) -> process(key), threads.workers(), threads.timer(),
                Duration.ofMillis(200), Duration.ofSeconds(30));
        jobs.forEach((kind, informer) -> informer.addEventHandler(EveryChange.handler(job -> queue.add(new JobKey(kind,
                job.getMetadata().getNamespace(), job.getMetadata().getName()), "job"))));
        volcanoPodGroups.addEventHandler(EveryChange.handler(this::enqueueOwner));
        coschedulingPodGroups.addEventHandler(EveryChange.handler(this::enqueueOwner));
        pods.addEventHandler(EveryChange.handler(this::enqueueOwner));
        queues.addEventHandler(EveryChange.handler(changed -> enqueueAll()));
    }

    @Override
    public void start() throws InterruptedException {
        informers.start();
    }

    @Override
    public void stop() {
        queue.stop();
        informers.stop();
        threads.stop();
    }

    private void enqueueOwner(HasMetadata object) {
        for (OwnerReference owner : object.getMetadata().getOwnerReferences()) {
            Optional<TrainingKind> kind = TrainingKind.ofKind(owner.getKind());
            if (kind.isPresent() && KubeflowApi.API_VERSION.equals(owner.getApiVersion())) {
                queue.add(new JobKey(kind.get(), object.getMetadata().getNamespace(), owner.getName()), "owned");
            }
        }
    }

    private void enqueueAll() {
        jobs.forEach((kind, informer) -> informer.getStore().list().forEach(job -> queue.add(new JobKey(kind,
                job.getMetadata().getNamespace(), job.getMetadata().getName()), "queues")));
    }

    private void process(JobKey key) {
        GenericKubernetesResource object = jobs.get(key.kind()).getIndexer().getByKey(key.cacheKey());
        if (object == null) {
            // what it owns names it: the garbage collector removes it
            queue.forget(key);
            return;
        }
        TrainingJobReader.Read read = TrainingJobReader.read(key.kind(), JSON.valueToTree(object));
        if (!read.job().managedBy().byTheOperator()) {
            // the operator skips it (tfjob_controller.go:130-133): nothing of Muster's either, not even bad input
            log.debug("job={} left alone: spec.runPolicy.managedBy is {}", read.job().displayName(), read.job().managedBy().value().orElseThrow());
            return;
        }
        ImmutableSet<String> queueNames = queues.getStore().list().stream().map(q -> q.getMetadata().getName())
                .collect(ImmutableSet.toImmutableSet());
        Optional<PodGroupView> volcano = ownedPodGroup(volcanoPodGroups, key, object);
        Optional<PodGroupView> coscheduling = ownedPodGroup(coschedulingPodGroups, key, object);
        List<Pod> jobPods = pods.getIndexer().byIndex(BY_JOB, key.cacheKey()).stream()
                .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
                .filter(pod -> !List.of("Succeeded", "Failed").contains(pod.getStatus() == null ? "" : pod.getStatus().getPhase()))
                .toList();
        int bound = (int) jobPods.stream().filter(pod -> pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()).count();
        ObjectNode elasticGang = read.job().elasticMinimum().filter(minimum -> coscheduling.isPresent())
                .map(minimum -> elasticGangResources(key.kind(), JSON.valueToTree(object), minimum))
                .orElseGet(JsonNodeFactory.instance::objectNode);
        TrainingJobPlan plan = TrainingJobPlanner.plan(read, queueNames, volcano, coscheduling,
                new TrainingJobPlanner.JobPods(jobPods.size(), bound), elasticGang, clock.instant());
        writer.write(object, read.job(), plan);
        plan.recheckAfter().ifPresent(delay -> queue.addAfter(key, "recheck", delay.plusMillis(100)));
        log.debug("job={} problems={} mirror={} pending={}", read.job().displayName(), plan.problems().size(), plan.mirror().isPresent(),
                plan.pending().isPresent());
    }

    /**
     * What an elastic job's gang of {@code minimum} pods needs, as native mode counts it; nothing when a replica's template
     * cannot be read (the planner reports the job's problems; such a template is the operator's to refuse).
     */
    private ObjectNode elasticGangResources(TrainingKind kind, JsonNode object, int minimum) {
        NativeJobReader.Read job = NativeJobReader.read(kind, object);
        if (!job.problems().isEmpty()) {
            return JsonNodeFactory.instance.objectNode();
        }
        return GangResources.minResources(job.job(), minimum, GangResources.priorityValues(priorityClasses.getStore().list()));
    }

    /** The PodGroup named after the job that the job owns (the operator's, or the bridge's mirror). */
    private static Optional<PodGroupView> ownedPodGroup(SharedIndexInformer<GenericKubernetesResource> informer, JobKey key,
            GenericKubernetesResource job) {
        GenericKubernetesResource podGroup = informer.getIndexer().getByKey(key.cacheKey());
        if (podGroup == null || podGroup.getMetadata().getOwnerReferences().stream()
                .noneMatch(owner -> owner.getUid().equals(job.getMetadata().getUid()))) {
            return Optional.empty();
        }
        return Optional.of(PodGroupView.of(JSON.valueToTree(podGroup)));
    }
}
