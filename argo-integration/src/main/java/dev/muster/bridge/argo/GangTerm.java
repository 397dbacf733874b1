package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.runtime.admission.AdmissionTrial;
import dev.muster.bridge.argo.server.ArgoServerClient;
import dev.muster.bridge.argo.server.ArgoServerException;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.binding.RetryPolicy;
import dev.muster.runtime.controller.EveryChange;
import dev.muster.runtime.controller.KeyedWorkQueue;
import dev.muster.runtime.controller.ObjectKey;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import dev.muster.runtime.controller.TermInformers;
import dev.muster.runtime.controller.TermThreads;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
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
 * One leader term of the bridge: informers on Workflows, their pods (by Argo's workflow label), their
 * PodGroups and Volcano's Queues, and a work queue of Workflows. A change to a Workflow or to one of its
 * pods queues the Workflow; processing reads it, plans its gangs and DAG hints (with the durations of
 * the finished Workflows seen this term) and writes the plans. Any change also queues one admission
 * pass over every Workflow ({@link AdmissionPass}). Nothing outlives
 * {@link #stop()}.
 */
final class GangTerm implements TermController.Term {
    static final ResourceDefinitionContext QUEUES = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("Queue").withPlural("queues").withNamespaced(false)
            .build();
    private static final Logger log = LoggerFactory.getLogger(GangTerm.class);
    private static final String BY_WORKFLOW = "workflow";
    private static final int WORKERS = 2;
    /** The admission pass's only key: it looks at every workflow at once, as queue order needs. */
    private static final String ADMISSION = "admission";
    /** One request for every cause, so a burst of changes collapses into one pass. */
    private static final String CHANGE = "change";
    private static final Duration ADMISSION_RETRY = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SharedIndexInformer<GenericKubernetesResource> workflows;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<GenericKubernetesResource> podGroups;
    private final SharedIndexInformer<GenericKubernetesResource> queues;
    private final TermInformers informers;
    private final TermThreads threads = new TermThreads("muster-argo-bridge", WORKERS);
    private final KeyedWorkQueue<ObjectKey, String> queue;
    private final GangWriter writer;
    private final DurationHistory history = new DurationHistory();
    private final KeyedWorkQueue<String, String> admissions;
    private final AdmissionPass admission;
    private final Optional<ArgoServerClient> server;

    GangTerm(KubernetesClient client, SharedInformers shared, Clock clock, AdmissionTrial trial, Optional<ArgoServerClient> server) {
        requireNonNull(client, "client is null");
        // in the order they start: what a Workflow's processing reads has listed before the Workflows
        this.informers = new TermInformers(shared, "argo bridge");
        this.queues = informers.resources(QUEUES);
        this.podGroups = informers.resources(PodGroupManifests.POD_GROUPS, ArgoApi.WORKFLOW_LABEL);
        this.pods = informers.pods(ArgoApi.WORKFLOW_LABEL);
        this.workflows = informers.resources(ArgoApi.WORKFLOWS);
        pods.addIndexers(Map.of(BY_WORKFLOW, pod -> List.of(pod.getMetadata().getNamespace() + "/"
                + pod.getMetadata().getLabels().get(ArgoApi.WORKFLOW_LABEL))));
        EventRecorder events = EventRecorder.connect(client, RetryPolicy.DEFAULT, clock, GangWriter.COMPONENT);
        this.writer = new GangWriter(client, events,
                podGroup -> Optional.ofNullable(podGroups.getIndexer().getByKey(podGroup.namespace() + "/" + podGroup.name())));
        this.queue = new KeyedWorkQueue<>("argo-workflow", (key, request) -> process(key), threads.workers(), threads.timer(),
                Duration.ofMillis(200), Duration.ofSeconds(30));
        this.admission = new AdmissionPass(() -> workflows.getStore().list(), () -> queues.getStore().list(), trial,
                new AdmissionWriter(client, server, events, clock));
        this.server = server;
        this.admissions = new KeyedWorkQueue<>("argo-admission", (key, request) -> admit(), threads.workers(), threads.timer(),
                Duration.ofMillis(200), Duration.ofSeconds(30));
        workflows.addEventHandler(EveryChange.handler(workflow -> {
            enqueue(workflow);
            admissions.add(ADMISSION, CHANGE);
        }));
        pods.addEventHandler(EveryChange.handler(pod -> {
            queue.add(new ObjectKey(pod.getMetadata().getNamespace(), pod.getMetadata().getLabels().get(ArgoApi.WORKFLOW_LABEL)), "pod");
            admissions.add(ADMISSION, CHANGE);
        }));
        queues.addEventHandler(EveryChange.handler(changed -> admissions.add(ADMISSION, CHANGE)));
    }

    @Override
    public void start() throws InterruptedException {
        server.ifPresent(GangTerm::checkServer);
        informers.start();
    }

    /**
     * Says at the start of each term whether the Argo Server answers with the token: a wrong URL or token is then
     * named once, not at the first workflow admitted; the term starts either way, and each resume tries again.
     */
    private static void checkServer(ArgoServerClient server) {
        try {
            log.info("argo bridge: the Argo Server at {} answers (version {}); admitted workflows are resumed through it", server.url(),
                    server.version());
        } catch (ArgoServerException e) {
            log.error("argo bridge: {}; admitted workflows wait until it answers", e.getMessage());
        }
    }

    @Override
    public void stop() {
        admissions.stop();
        queue.stop();
        informers.stop();
        threads.stop();
    }

    /**
     * Admits what its queue can take now. While a workflow waits, asks again a little later: the
     * scheduler's cache, which the answer comes from, sees a pod end after this term's informers do.
     */
    private void admit() {
        if (admission.run()) {
            admissions.addAfter(ADMISSION, CHANGE, ADMISSION_RETRY);
        }
    }

    private void enqueue(GenericKubernetesResource workflow) {
        queue.add(new ObjectKey(workflow.getMetadata().getNamespace(), workflow.getMetadata().getName()), "workflow");
    }

    private void process(ObjectKey key) {
        GenericKubernetesResource object = workflows.getIndexer().getByKey(key.toString());
        if (object == null) {
            // its PodGroups name it as their owner: the garbage collector removes them
            queue.forget(key);
            return;
        }
        JsonNode tree = JSON.valueToTree(object);
        WorkflowReader.Result read = WorkflowReader.read(tree);
        if (read.workflow().isEmpty()) {
            Workflow unread = new Workflow(key.namespace(), key.name(), object.getMetadata().getUid(), "", "", ImmutableMap.of(),
                    ImmutableMap.of());
            writer.report(unread, "cannot read the Workflow, so it runs without gang semantics: " + String.join("; ", read.problems()));
            writer.releaseAll(ImmutableList.copyOf(pods.getIndexer().byIndex(BY_WORKFLOW, key.toString())));
            return;
        }
        Workflow workflow = read.workflow().get();
        history.record(workflow);
        ImmutableSet<String> queueNames = queues.getStore().list().stream().map(q -> q.getMetadata().getName())
                .collect(ImmutableSet.toImmutableSet());
        // a DAG Argo refuses ends the workflow at once, so problems are reported for a finished one too
        TemplateReader.Result templates = TemplateReader.read(tree);
        DagPlan dag = DagPlanner.plan(workflow, templates, template -> history.duration(workflow, template));
        GangPlan plan = GangPlanner.plan(workflow, queueNames, dag, templates.templates());
        ImmutableList<Pod> workflowPods = ImmutableList.copyOf(pods.getIndexer().byIndex(BY_WORKFLOW, key.toString()));
        writer.write(workflow, plan, workflowPods);
        writer.writeDagHints(workflow, dag, plan, workflowPods);
        log.debug("workflow={} podGroups={} problems={} dagProblems={}", key, plan.podGroups().size(), plan.problems().size(),
                dag.problems().size());
    }
}
