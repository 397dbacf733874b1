package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.cache.CacheSnapshot;
import dev.muster.engine.cache.StoredObject;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Task;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Volcano's controllers do that the scheduler needs to run alone: create the {@code default}
 * Queue when it is absent (and {@code root} once a queue names a parent), and create the PodGroup of
 * one that Volcano's podgroup controller makes for a pod of ours that names none. That PodGroup is
 * named as the engine already names the automatic job ({@code podgroup-<uid>}), has the pod as owner
 * so it is deleted with it, takes its queue from the pod's {@code scheduling.volcano.sh/queue-name}
 * annotation, and the pod is annotated with its name, as is each pod of the same owner that comes later. Until the informer shows it, the engine treats
 * the pod as that automatic job, so nothing waits for the controller.
 *
 * <p>Not thread-safe: the scheduling thread calls it once per cycle.
 */
public final class ImpliedObjects {
    private static final Logger log = LoggerFactory.getLogger(ImpliedObjects.class);

    private final RestCalls rest;
    /** Objects asked for and not yet seen by the informer, so a lagging cache does not ask twice. */
    private final Set<String> requested = ConcurrentHashMap.newKeySet();

    public ImpliedObjects(KubernetesClient client, RetryPolicy retry) {
        this(new RestCalls(requireNonNull(client, "client is null"), requireNonNull(retry, "retry is null")));
    }

    ImpliedObjects(RestCalls rest) {
        this.rest = requireNonNull(rest, "rest is null");
    }

    /** Creates the missing queues and PodGroups and waits for the answers. */
    public void reconcile(CacheSnapshot snapshot) {
        List<CompletableFuture<?>> calls = new ArrayList<>();
        // filled also by the answers' callbacks (a new PodGroup's pods), so read only after all are in
        Set<String> stillMissing = ConcurrentHashMap.newKeySet();
        if (!snapshot.queues().containsKey(Queue.DEFAULT)) {
            createQueue(Queue.DEFAULT, calls, stillMissing);
        }
        boolean tree = snapshot.cluster().queues().values().stream().anyMatch(queue -> queue.parent().isPresent());
        if (tree && !snapshot.queues().containsKey(Queue.ROOT)) {
            createQueue(Queue.ROOT, calls, stillMissing);
        }
        for (Job job : snapshot.cluster().jobs().values()) {
            StoredObject podGroup = snapshot.podGroups().get(job.id());
            if (podGroup == null) {
                if (!job.tasks().isEmpty()) {
                    createPodGroup(job, calls, stillMissing);
                }
                continue;
            }
            // a pod that joins an automatic PodGroup after it was made (the second pod of one owner); every
            // cycle reads every job here, so nothing is allocated for the many whose pods all name theirs.
            // Only Volcano's are automatic: the pods of a Workload API PodGroup name it in their spec
            if (!podGroup.apiVersion().equals(StatusWriter.VOLCANO)) {
                continue;
            }
            List<Task> unnamed = unnamed(job);
            if (!unnamed.isEmpty()) {
                calls.add(annotate(job, unnamed, stillMissing));
            }
        }
        calls.forEach(CompletableFuture::join);
        requested.retainAll(stillMissing);
    }

    private void createQueue(QueueName name, List<CompletableFuture<?>> calls, Set<String> stillMissing) {
        String key = "queue " + name;
        stillMissing.add(key);
        if (!requested.add(key)) {
            return;
        }
        ObjectNode queue = JsonNodeFactory.instance.objectNode()
                .put("apiVersion", StatusWriter.VOLCANO)
                .put("kind", "Queue");
        queue.putObject("metadata").put("name", name.value());
        queue.putObject("spec").put("weight", 1).put("reclaimable", true);
        log.info("creating missing queue={}", name);
        calls.add(rest.post("/apis/" + StatusWriter.VOLCANO + "/queues", queue.toString())
                .thenAccept(response -> created(key, response)));
    }

    private void createPodGroup(Job job, List<CompletableFuture<?>> calls, Set<String> stillMissing) {
        JobId id = job.id();
        String key = "podgroup " + id;
        stillMissing.add(key);
        if (!requested.add(key)) {
            return;
        }
        Task pod = job.tasks().get(0);
        ObjectNode podGroup = JsonNodeFactory.instance.objectNode()
                .put("apiVersion", StatusWriter.VOLCANO)
                .put("kind", "PodGroup");
        ObjectNode metadata = podGroup.putObject("metadata").put("name", id.name()).put("namespace", id.namespace());
        metadata.putArray("ownerReferences").addObject()
                .put("apiVersion", "v1")
                .put("kind", "Pod")
                .put("name", pod.id().name())
                .put("uid", pod.uid());
        ObjectNode spec = podGroup.putObject("spec").put("minMember", job.minMember()).put("queue", job.queue().value());
        job.minResources().ifPresent(resources -> spec.set("minResources", QueueStatus.resourceList(resources)));
        if (!job.priorityClassName().isEmpty()) {
            spec.put("priorityClassName", job.priorityClassName());
        }
        podGroup.putObject("status").put("phase", job.phase().text());
        String base = "/apis/" + StatusWriter.VOLCANO + "/namespaces/" + id.namespace() + "/podgroups";
        calls.add(rest.post(base, podGroup.toString()).thenCompose(response -> {
            created(key, response);
            boolean exists = response.outcome() == ApiResponse.Outcome.DONE || response.outcome() == ApiResponse.Outcome.CONFLICT;
            // a pod naming a PodGroup that was not made would not be scheduled: the next cycle asks for it again
            return exists ? annotate(job, job.tasks(), stillMissing) : CompletableFuture.completedFuture(null);
        }));
    }

    /**
     * The pods of an automatic job that do not name its PodGroup yet. Those that name one, or are in a
     * coscheduling group by label, were put in it by someone else and are left alone.
     */
    private static List<Task> unnamed(Job job) {
        return job.tasks().stream()
                .filter(task -> task.annotations().getOrDefault(SchedulingApi.GROUP_NAME_ANNOTATION, "").isEmpty())
                .filter(task -> !task.labels().containsKey(SchedulingApi.COSCHEDULING_GROUP_LABEL))
                .filter(task -> !task.status().isTerminated())
                .toList();
    }

    /** Annotates each pod with its job's PodGroup, once until the informer shows it; a failed patch is asked again next cycle. */
    private CompletableFuture<Void> annotate(Job job, List<Task> tasks, Set<String> stillMissing) {
        ObjectNode annotation = JsonNodeFactory.instance.objectNode();
        annotation.putObject("metadata").putObject("annotations").put(SchedulingApi.GROUP_NAME_ANNOTATION, job.id().name());
        List<CompletableFuture<Void>> patches = new ArrayList<>();
        for (Task task : tasks) {
            String key = "group annotation " + task.id();
            stillMissing.add(key);
            if (!requested.add(key)) {
                continue;
            }
            String path = "/api/v1/namespaces/" + task.id().namespace() + "/pods/" + task.id().name();
            patches.add(rest.mergePatch(path, annotation.toString()).thenAccept(response -> annotated(key, response)));
        }
        return CompletableFuture.allOf(patches.toArray(CompletableFuture[]::new));
    }

    private void annotated(String key, ApiResponse response) {
        switch (response.outcome()) {
            case DONE -> log.debug("annotated {}", key);
            case FENCED, GONE -> requested.remove(key);
            case CONFLICT, RETRY, REJECTED -> {
                requested.remove(key);
                log.warn("cannot write {} detail=\"{}\"", key, response.describe());
            }
        }
    }

    private void created(String key, ApiResponse response) {
        switch (response.outcome()) {
            case DONE, CONFLICT -> log.debug("created object={}", key);
            case FENCED -> requested.remove(key);
            case GONE, RETRY, REJECTED -> {
                // ask again next cycle
                requested.remove(key);
                log.warn("cannot create object={} detail=\"{}\"", key, response.describe());
            }
        }
    }
}
