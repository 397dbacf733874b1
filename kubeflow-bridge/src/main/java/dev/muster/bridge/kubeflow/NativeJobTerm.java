package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Maps;
import dev.muster.bridge.kubeflow.NativeReplicaPlanner.NativeReplicas;
import dev.muster.bridge.kubeflow.TrainingJobTerm.JobKey;
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
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One leader term of native mode: informers on TFJobs and PyTorchJobs, on the pods and Services labelled with
 * their job, on Volcano PodGroups, Queues and PriorityClasses (for the PodGroup's {@code minResources}), and a work queue of jobs. A change to a job or to what it owns
 * queues the job; processing reads it, decides ({@link NativeJobSync}) and writes ({@link NativeJobWriter}).
 */
final class NativeJobTerm implements TermController.Term {
    private static final Logger log = LoggerFactory.getLogger(NativeJobTerm.class);
    private static final String BY_JOB = "job";
    private static final int WORKERS = 2;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Clock clock;
    private final ImmutableMap<TrainingKind, SharedIndexInformer<GenericKubernetesResource>> jobs;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<Service> services;
    private final SharedIndexInformer<GenericKubernetesResource> podGroups;
    private final SharedIndexInformer<GenericKubernetesResource> queues;
    private final SharedIndexInformer<GenericKubernetesResource> priorityClasses;
    private final TermInformers informers;
    private final TermThreads threads = new TermThreads("muster-kubeflow-native", WORKERS);
    private final KeyedWorkQueue<JobKey, String> queue;
    private final NativeJobWriter writer;

    NativeJobTerm(KubernetesClient client, SharedInformers shared, Clock clock) {
        requireNonNull(client, "client is null");
        this.clock = requireNonNull(clock, "clock is null");
        // in the order they start: what a job's processing reads has listed before the jobs
        this.informers = new TermInformers(shared, "kubeflow native mode");
        this.queues = informers.resources(KubernetesResources.QUEUES);
        this.priorityClasses = informers.resources(KubernetesResources.PRIORITY_CLASSES);
        this.podGroups = informers.resources(KubernetesResources.VOLCANO_POD_GROUPS);
        this.services = informers.services(KubeflowApi.JOB_NAME_LABEL);
        this.pods = informers.pods(KubeflowApi.JOB_NAME_LABEL);
        this.jobs = Maps.toMap(List.of(TrainingKind.values()), kind -> informers.resources(kind.context()));
        pods.addIndexers(Map.of(BY_JOB, NativeJobTerm::jobOf));
        services.addIndexers(Map.of(BY_JOB, NativeJobTerm::jobOf));
        this.writer = new NativeJobWriter(client, EventRecorder.connect(client, RetryPolicy.DEFAULT, clock, NativeJobWriter.COMPONENT));
        this.queue = new KeyedWorkQueue<>("kubeflow-native-job", (key, request) -> process(key), threads.workers(), threads.timer(),
                Duration.ofMillis(200), Duration.ofSeconds(30));
        jobs.forEach((kind, informer) -> informer.addEventHandler(EveryChange.handler(job -> queue.add(new JobKey(kind,
                job.getMetadata().getNamespace(), job.getMetadata().getName()), "job"))));
        pods.addEventHandler(EveryChange.handler(this::enqueueOwner));
        services.addEventHandler(EveryChange.handler(this::enqueueOwner));
        podGroups.addEventHandler(EveryChange.handler(this::enqueueOwner));
        queues.addEventHandler(EveryChange.handler(changed -> jobs.forEach((kind, informer) -> informer.getStore().list()
                .forEach(job -> queue.add(new JobKey(kind, job.getMetadata().getNamespace(), job.getMetadata().getName()), "queues")))));
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

    private static List<String> jobOf(HasMetadata object) {
        return List.of(object.getMetadata().getNamespace() + "/" + object.getMetadata().getLabels().get(KubeflowApi.JOB_NAME_LABEL));
    }

    private void enqueueOwner(HasMetadata object) {
        for (OwnerReference owner : object.getMetadata().getOwnerReferences()) {
            Optional<TrainingKind> kind = TrainingKind.ofKind(owner.getKind());
            if (kind.isPresent() && KubeflowApi.API_VERSION.equals(owner.getApiVersion())) {
                queue.add(new JobKey(kind.get(), object.getMetadata().getNamespace(), owner.getName()), "owned");
            }
        }
    }

    private void process(JobKey key) {
        GenericKubernetesResource object = jobs.get(key.kind()).getIndexer().getByKey(key.cacheKey());
        if (object == null) {
            // what it owns names it: the garbage collector removes it
            queue.forget(key);
            return;
        }
        JsonNode json = JSON.valueToTree(object);
        NativeJobReader.Read read = NativeJobReader.read(key.kind(), json);
        NativeJob job = read.job();
        Optional<NativeSyncPlan.Event> leftAlone = NativeJobSync.leftAlone(job.job());
        if (leftAlone.isPresent()) {
            writer.event(job.job(), leftAlone.get());
            log.debug("job={} left alone: {}", job.job().displayName(), leftAlone.get().message());
            return;
        }
        NativeJobStatus current = NativeJobStatus.of(json.path("status"));
        NativeReplicas replicas = replicas(read);
        if (!replicas.problems().isEmpty()) {
            refuse(object, job, current, replicas);
            return;
        }
        if (current.isTrue(TrainingJobWriter.INVALID_CONDITION)) {
            // mended: said as the bridge's controller says it
            current = current.withCondition(TrainingJobWriter.INVALID_CONDITION, false, "InputGood", "the input is good", clock.instant());
        }
        Optional<String> queueName = job.job().schedulingPolicy().queue().filter(name -> !name.equals(TrainingJobPlanner.DEFAULT_QUEUE));
        if (queueName.isPresent() && queues.getIndexer().getByKey(queueName.get()) == null && !current.finished()) {
            // the bridge's controller says so on the job and suspends it; nothing is made meanwhile
            log.debug("job={} waits for queue {}", job.job().displayName(), queueName.get());
            return;
        }
        String uid = job.job().uid();
        ImmutableList<ReplicaPod> jobPods = pods.getIndexer().byIndex(BY_JOB, key.cacheKey()).stream()
                .filter(pod -> ownedBy(pod, uid)).flatMap(pod -> ReplicaPod.of(pod, key.kind()).stream())
                .collect(ImmutableList.toImmutableList());
        ImmutableSet<String> jobServices = services.getIndexer().byIndex(BY_JOB, key.cacheKey()).stream()
                .filter(service -> ownedBy(service, uid)).map(service -> service.getMetadata().getName())
                .collect(ImmutableSet.toImmutableSet());
        Optional<String> phase = Optional.ofNullable(podGroups.getIndexer().getByKey(key.cacheKey()))
                .map(podGroup -> JSON.valueToTree(podGroup).path("status").path("phase").asText(""));
        NativeJobSync.Observed observed = new NativeJobSync.Observed(jobPods, jobServices, phase, clock.instant());
        NativeSyncPlan plan = NativeJobSync.sync(job, RunPolicy.read(json), current, observed);
        writer.write(object, job, plan, () -> replicas, () -> GangResources.minResources(job, job.job().gangMinimum(), priorityValues()));
        if (plan.recheckAfter().isPresent()) {
            // a recheck left behind by a later sync only syncs once more
            Future<?> unused = queue.addAfter(key, "recheck", plan.recheckAfter().get().plusMillis(100));
        }
        log.debug("job={} create={} delete={} conditions={}", job.job().displayName(), plan.createPods(), plan.deletePods(),
                plan.status().conditions().stream().filter(JobCondition::status).map(JobCondition::type).toList());
    }

    /**
     * Bad input: nothing is made, an Event per field (the operator's words for a job that fails its validation,
     * {@code mpijob_controller.go:144-149}) and the bridge's {@code Invalid} condition, so the job runs once its
     * input is mended; {@link TrainingJobController} words the same condition the same way, so neither undoes the other.
     */
    private void refuse(GenericKubernetesResource object, NativeJob job, NativeJobStatus current, NativeReplicas replicas) {
        if (current.finished()) {
            return;
        }
        String kind = job.kind().kind();
        Instant now = clock.instant();
        String message = replicas.problems().stream().map(FieldProblem::toString).collect(Collectors.joining("; "));
        NativeJobStatus status = created(job, current, now)
                .withCondition(TrainingJobWriter.INVALID_CONDITION, true, TrainingJobWriter.INVALID_REASON, message, now);
        replicas.problems().forEach(problem -> writer.event(job.job(), new NativeSyncPlan.Event(true, kind + "FailedValidation",
                kind + " failed validation because " + problem)));
        writer.writeStatus(object, job.job(), status);
        log.info("job={} refused: {}", job.job().displayName(), message);
    }

    /** Each PriorityClass's value, by name. */
    private ImmutableMap<String, Integer> priorityValues() {
        return GangResources.priorityValues(priorityClasses.getStore().list());
    }

    private static NativeJobStatus created(NativeJob job, NativeJobStatus status, Instant now) {
        String kind = job.kind().kind();
        return status.condition(JobCondition.CREATED).isPresent() ? status
                : status.withCondition(JobCondition.CREATED, true, kind + "Created", kind + " " + job.job().name() + " is created.", now);
    }

    private static NativeReplicas replicas(NativeJobReader.Read read) {
        return NativeReplicaPlanner.plan(read, GangScheduling.volcano());
    }

    private static boolean ownedBy(HasMetadata object, String uid) {
        return object.getMetadata().getOwnerReferences().stream().anyMatch(owner -> uid.equals(owner.getUid()));
    }
}
