package dev.muster.cli.examplebridge;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import com.google.inject.Inject;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.runtime.controller.Controller;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.HttpURLConnection;
import java.util.Map;
import java.util.Optional;

/**
 * Turns each ExampleJob into what the scheduler reads, in Volcano's vocabulary: a PodGroup whose
 * minMember is the job's replicas, and that many pods that name it in the group annotation. It writes
 * desired state and never calls the scheduler; creating what exists already is not an error, so a
 * new term may see every job again.
 */
@ThreadSafe
public final class ExampleJobController implements Controller {
    public static final ResourceDefinitionContext EXAMPLE_JOBS = new ResourceDefinitionContext.Builder()
            .withGroup("example.muster.dev").withVersion("v1").withKind("ExampleJob").withPlural("examplejobs").withNamespaced(true)
            .build();
    private static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups").withNamespaced(true)
            .build();

    private final KubernetesClient client;
    @GuardedBy("this")
    private Optional<SharedIndexInformer<GenericKubernetesResource>> informer = Optional.empty();

    @Inject
    public ExampleJobController(KubernetesClient client) {
        this.client = requireNonNull(client, "client is null");
    }

    @Override
    public String name() {
        return "example-jobs";
    }

    @Override
    public synchronized void start() {
        if (informer.isPresent()) {
            return;
        }
        informer = Optional.of(client.genericKubernetesResources(EXAMPLE_JOBS).inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource job) {
                reconcile(job);
            }

            @Override
            public void onUpdate(GenericKubernetesResource previous, GenericKubernetesResource job) {
                reconcile(job);
            }

            @Override
            public void onDelete(GenericKubernetesResource job, boolean finalStateUnknown) {
                // the PodGroup and the pods name the job as their owner: the garbage collector removes them
            }
        }));
    }

    @Override
    public synchronized void stop() {
        informer.ifPresent(SharedIndexInformer::stop);
        informer = Optional.empty();
    }

    private void reconcile(GenericKubernetesResource job) {
        String namespace = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        int replicas = ((Number) job.get("spec", "replicas")).intValue();
        String cpu = job.get("spec", "cpu");
        OwnerReference owner = new OwnerReferenceBuilder().withApiVersion("example.muster.dev/v1").withKind("ExampleJob")
                .withName(name).withUid(job.getMetadata().getUid()).withController(true).build();
        createIfAbsent(() -> client.genericKubernetesResources(POD_GROUPS).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1").withKind("PodGroup")
                .withNewMetadata().withNamespace(namespace).withName(name).withOwnerReferences(owner).endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("minMember", replicas, "minResources",
                        Map.of("cpu", new Quantity(cpu).getNumericalAmount().multiply(java.math.BigDecimal.valueOf(replicas)).toPlainString()))))
                .build()).create());
        for (int index = 0; index < replicas; index++) {
            Pod pod = new PodBuilder()
                    .withNewMetadata().withNamespace(namespace).withName(name + "-" + index).withOwnerReferences(owner)
                    .withAnnotations(Map.of(SchedulingApi.GROUP_NAME_ANNOTATION, name)).endMetadata()
                    .withNewSpec().withSchedulerName("muster")
                    .addNewContainer().withName("main").withImage("busybox")
                    .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu))).endResources().endContainer()
                    .endSpec().build();
            createIfAbsent(() -> client.pods().inNamespace(namespace).resource(pod).create());
        }
    }

    private static void createIfAbsent(Runnable create) {
        try {
            create.run();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
        }
    }
}
