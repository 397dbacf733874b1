package dev.muster.jobs.runtime;

import dev.muster.engine.model.PodGroupPhase;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.controller.JobRequest;
import dev.muster.jobs.controller.PodEvents;
import dev.muster.jobs.flow.JobFlow;
import dev.muster.runtime.controller.KeyedWorkQueue;
import dev.muster.runtime.controller.ObjectKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns what the informers see into requests, as Volcano's event handlers do: a Job added or its spec
 * changed is a sync; a pod change is the request {@link PodEvents} makes of it; a PodGroup phase change
 * is {@code Unknown} or a sync; a Job's phase change, and a JobTemplate's spec change, wake the JobFlows
 * concerned; a Job made from a template, added or deleted, and any change of the template, wake the
 * template; a Command for a Job is taken when added. Handlers only compute and queue; they run on
 * the informers' threads.
 */
final class VolcanoInformerHandlers {
    private static final Logger log = LoggerFactory.getLogger(VolcanoInformerHandlers.class);

    private VolcanoInformerHandlers() {}

    static void register(VolcanoInformers informers, JobController jobs, JobFlowController flows, JobTemplateController templates,
            KeyedWorkQueue<ObjectKey, JobRequest> jobQueue, KeyedWorkQueue<ObjectKey, JobFlowController.Sync> flowQueue,
            KeyedWorkQueue<ObjectKey, JobFlowController.Sync> templateQueue, KeyedWorkQueue<ObjectKey, JobFlowController.Sync> commandQueue) {
        Consumer<HasMetadata> wakeFlow = job -> VolcanoInformers.controller(job, JobFlow.KIND)
                .ifPresent(owner -> flowQueue.add(new ObjectKey(job.getMetadata().getNamespace(), owner.getName()), JobFlowController.Sync.SYNC));
        Consumer<HasMetadata> wakeTemplate = job -> JobTemplateController.templateOf(job.getMetadata().getLabels())
                .ifPresent(template -> templateQueue.add(template, JobFlowController.Sync.SYNC));
        informers.jobs.addEventHandler(handler(
                job -> {
                    jobQueue.add(key(job), JobRequest.sync());
                    wakeFlow.accept(job);
                    wakeTemplate.accept(job);
                },
                (before, after) -> {
                    if (!Objects.equals(before.get("spec"), after.get("spec"))) {
                        jobQueue.add(key(after), JobRequest.sync());
                    }
                    if (!Objects.equals(before.get("status", "state", "phase"), after.get("status", "state", "phase"))) {
                        wakeFlow.accept(after);
                    }
                },
                job -> {
                    jobs.jobDeleted(job.getMetadata().getUid());
                    jobQueue.forget(key(job));
                    wakeFlow.accept(job);
                    wakeTemplate.accept(job);
                }));
        informers.pods.addEventHandler(handler(
                pod -> jobOf(pod).ifPresent(job -> jobQueue.add(job, JobRequest.sync())),
                (before, after) -> {
                    if (Objects.equals(before.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion())) {
                        return;
                    }
                    jobOf(after).ifPresent(job -> jobs.podUpdated(job, before, after).ifPresent(request -> jobQueue.add(job, request)));
                },
                pod -> jobOf(pod).ifPresent(job -> jobs.podDeleted(job, pod).ifPresent(request -> jobQueue.add(job, request)))));
        informers.podGroups.addEventHandler(handler(
                podGroup -> jobOf(podGroup).ifPresent(job -> jobQueue.add(job, JobRequest.sync())),
                (before, after) -> {
                    Object phase = after.get("status", "phase");
                    if (!Objects.equals(before.get("status", "phase"), phase)) {
                        jobOf(after).ifPresent(job -> jobQueue.add(job, podGroupRequest(job, phase)));
                    }
                },
                podGroup -> jobOf(podGroup).ifPresent(job -> jobQueue.add(job, JobRequest.sync()))));
        informers.flows.addEventHandler(handler(
                flow -> flowQueue.add(key(flow), JobFlowController.Sync.SYNC),
                (before, after) -> {
                    if (!Objects.equals(before.get("spec"), after.get("spec"))) {
                        flowQueue.add(key(after), JobFlowController.Sync.SYNC);
                    }
                },
                flow -> {
                    flows.flowDeleted(flow.getMetadata().getUid());
                    flowQueue.forget(key(flow));
                }));
        Consumer<GenericKubernetesResource> wakeNamespace = template -> informers.flows.getIndexer()
                .byIndex(Cache.NAMESPACE_INDEX, template.getMetadata().getNamespace())
                .forEach(flow -> flowQueue.add(key(flow), JobFlowController.Sync.SYNC));
        informers.templates.addEventHandler(handler(wakeNamespace, (before, after) -> {
            if (!Objects.equals(before.get("spec"), after.get("spec"))) {
                wakeNamespace.accept(after);
            }
        }, template -> { }));
        informers.templates.addEventHandler(handler(
                template -> templateQueue.add(key(template), JobFlowController.Sync.SYNC),
                (before, after) -> templateQueue.add(key(after), JobFlowController.Sync.SYNC),
                template -> {
                    templates.templateDeleted(template.getMetadata().getUid());
                    templateQueue.forget(key(template));
                }));
        registerCommands(informers, commandQueue);
    }

    /** Commands are taken when added, as in Volcano; the controller deletes each one it takes. */
    private static void registerCommands(VolcanoInformers informers, KeyedWorkQueue<ObjectKey, JobFlowController.Sync> commandQueue) {
        informers.commands.addEventHandler(handler(
                command -> {
                    if (CommandController.targetsAJob(command)) {
                        commandQueue.add(key(command), JobFlowController.Sync.SYNC);
                    }
                },
                (before, after) -> { },
                command -> commandQueue.forget(key(command))));
    }

    private static JobRequest podGroupRequest(ObjectKey job, Object phase) {
        try {
            return PodEvents.onPodGroupPhase(PodGroupPhase.parse(phase == null ? "" : phase.toString()));
        } catch (IllegalArgumentException e) {
            log.debug("job={}: {}", job, e.getMessage());
            return JobRequest.sync();
        }
    }

    private static ObjectKey key(HasMetadata object) {
        return new ObjectKey(object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    /** The Volcano Job that controls the object. */
    private static Optional<ObjectKey> jobOf(HasMetadata object) {
        return VolcanoInformers.controller(object, VolcanoJob.KIND)
                .filter(owner -> VolcanoJob.API_VERSION.equals(owner.getApiVersion()))
                .map(owner -> new ObjectKey(object.getMetadata().getNamespace(), owner.getName()));
    }

    private static <T extends HasMetadata> ResourceEventHandler<T> handler(Consumer<T> added, BiConsumer<T, T> updated, Consumer<T> deleted) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                added.accept(object);
            }

            @Override
            public void onUpdate(T before, T after) {
                updated.accept(before, after);
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                deleted.accept(object);
            }
        };
    }
}
