package dev.muster.jobs.runtime;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.controller.PodGroupManifest;
import dev.muster.jobs.controller.PriorityClassLookup;
import dev.muster.jobs.flow.JobFlow;
import dev.muster.jobs.flow.JobTemplate;
import dev.muster.runtime.controller.ObjectKey;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermInformers;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The informers the job controllers read: Volcano Jobs, the pods Volcano's controller labels
 * ({@code volcano.sh/job-name}), PodGroups, PriorityClasses, JobTemplates, JobFlows and Commands, leased
 * from the process's {@link SharedInformers} (the bridges read the same PodGroups). Handlers are added
 * before {@link #start}, which waits for the API server as long as it takes; a kind the API server does
 * not serve (no JobFlow CRD, say) is left unwatched with a warning, and its store stays empty.
 */
@ThreadSafe
final class VolcanoInformers {
    static final ResourceDefinitionContext JOBS = context(VolcanoJob.API_VERSION, VolcanoJob.KIND, "jobs");
    static final ResourceDefinitionContext POD_GROUPS = context(PodGroupManifest.API_VERSION, "PodGroup", "podgroups");
    static final ResourceDefinitionContext JOB_FLOWS = context(JobFlow.API_VERSION, JobFlow.KIND, "jobflows");
    static final ResourceDefinitionContext JOB_TEMPLATES = context(JobTemplate.API_VERSION, JobTemplate.KIND, "jobtemplates");
    static final ResourceDefinitionContext COMMANDS = context(CommandController.API_VERSION, CommandController.KIND, "commands");
    /** Pods by the key ({@code namespace/name}) of the job named in their {@code volcano.sh/job-name} label. */
    static final String BY_JOB = "job";
    /** Jobs by the key of the JobFlow that controls them. */
    static final String BY_FLOW = "flow";
    /** Jobs by the key of the JobTemplate they were made from ({@code volcano.sh/createdByJobTemplate}). */
    static final String BY_TEMPLATE = "template";

    private final KubernetesClient client;
    private final TermInformers informers;
    final SharedIndexInformer<GenericKubernetesResource> jobs;
    final SharedIndexInformer<Pod> pods;
    final SharedIndexInformer<GenericKubernetesResource> podGroups;
    final SharedIndexInformer<PriorityClass> priorityClasses;
    final SharedIndexInformer<GenericKubernetesResource> flows;
    final SharedIndexInformer<GenericKubernetesResource> templates;
    final SharedIndexInformer<GenericKubernetesResource> commands;

    VolcanoInformers(KubernetesClient client, SharedInformers shared) {
        this.client = requireNonNull(client, "client is null");
        this.informers = new TermInformers(shared, "job controllers");
        this.jobs = informers.resources(JOBS);
        this.pods = informers.pods(SchedulingApi.JOB_NAME);
        this.podGroups = informers.resources(POD_GROUPS);
        this.priorityClasses = informers.priorityClasses();
        this.flows = informers.resources(JOB_FLOWS);
        this.templates = informers.resources(JOB_TEMPLATES);
        this.commands = informers.resources(COMMANDS);
        pods.addIndexers(Map.of(BY_JOB, pod -> List.of(pod.getMetadata().getNamespace() + "/"
                + pod.getMetadata().getLabels().getOrDefault(SchedulingApi.JOB_NAME, ""))));
        jobs.addIndexers(Map.of(BY_FLOW, job -> controller(job, JobFlow.KIND)
                .map(owner -> List.of(job.getMetadata().getNamespace() + "/" + owner.getName())).orElse(List.of()),
                BY_TEMPLATE, job -> JobTemplateController.templateOf(job.getMetadata().getLabels())
                        .filter(template -> template.namespace().equals(job.getMetadata().getNamespace()))
                        .map(template -> List.of(template.toString())).orElse(List.of())));
    }

    /**
     * Starts every informer and waits until each has listed its kind once, saying every {@code warnEvery}
     * why the API server cannot be read yet; a kind not served is left unwatched.
     */
    void start(Duration warnEvery) throws InterruptedException {
        informers.startWithoutDeadline(warnEvery);
    }

    /** Takes the handlers off and gives the informers back. */
    void stop() {
        informers.stop();
    }

    /** The object as a JSON tree with its type, the form the readers take (list items may come without it). */
    ObjectNode tree(GenericKubernetesResource object, String apiVersion, String kind) {
        ObjectNode tree = client.getKubernetesSerialization().convertValue(object, ObjectNode.class);
        tree.put("apiVersion", apiVersion);
        tree.put("kind", kind);
        return tree;
    }

    Optional<GenericKubernetesResource> job(String namespace, String name) {
        return Optional.ofNullable(jobs.getStore().getByKey(namespace + "/" + name));
    }

    /** The names of the Jobs made from the template {@code key}, in its namespace. */
    List<String> jobsOfTemplate(ObjectKey key) {
        return jobs.getIndexer().byIndex(BY_TEMPLATE, key.toString()).stream().map(job -> job.getMetadata().getName()).toList();
    }

    Optional<GenericKubernetesResource> podGroup(String namespace, String name) {
        return Optional.ofNullable(podGroups.getStore().getByKey(namespace + "/" + name));
    }

    List<Pod> podsOfJob(String namespace, String name) {
        return pods.getIndexer().byIndex(BY_JOB, namespace + "/" + name);
    }

    PriorityClassLookup priorities() {
        return name -> {
            PriorityClass priorityClass = priorityClasses.getStore().getByKey(name);
            return priorityClass == null || priorityClass.getValue() == null ? OptionalInt.empty() : OptionalInt.of(priorityClass.getValue());
        };
    }

    /** The owner reference that marks {@code object}'s controller of this kind, if any. */
    static Optional<OwnerReference> controller(HasMetadata object, String kind) {
        return object.getMetadata().getOwnerReferences().stream()
                .filter(owner -> Boolean.TRUE.equals(owner.getController()) && kind.equals(owner.getKind()))
                .findFirst();
    }

    private static ResourceDefinitionContext context(String apiVersion, String kind, String plural) {
        int slash = apiVersion.indexOf('/');
        return new ResourceDefinitionContext.Builder().withGroup(apiVersion.substring(0, slash)).withVersion(apiVersion.substring(slash + 1))
                .withKind(kind).withPlural(plural).withNamespaced(true).build();
    }
}
