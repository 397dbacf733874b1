package dev.muster.bench.sidebyside;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The benchmark's pods, the same for both sides but for what makes them a gang: {@code pods} pods of
 * 1 cpu / 1 GiB named {@code pod-00000} ..., and for Muster one PodGroup per {@code gang} pods
 * ({@code minMember} the gang's size, queue {@code default}) that each of its pods names in the
 * {@code scheduling.k8s.io/group-name} annotation. The last gang is smaller when the pods do not divide
 * evenly.
 */
record Workload(String namespace, int pods, int gang) {
    static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";
    static final String POD_GROUP_API = "scheduling.volcano.sh/v1beta1";
    static final String CPU = "1";
    static final String MEMORY = "1Gi";

    Workload {
        requireNonNull(namespace, "namespace is null");
        checkArgument(pods > 0, "pods must be positive: %s", pods);
        checkArgument(gang > 0, "gang must be positive: %s", gang);
    }

    int gangs() {
        return Math.floorDiv(pods + gang - 1, gang);
    }

    static String podName(int index) {
        return String.format("pod-%05d", index);
    }

    static String groupName(int gangIndex) {
        return String.format("gang-%04d", gangIndex);
    }

    /** The objects to create for {@code side}, PodGroups first, each before the pods that name it. */
    List<HasMetadata> objects(Side side) {
        List<HasMetadata> objects = new ArrayList<>();
        if (side.gangs()) {
            for (int gangIndex = 0; gangIndex < gangs(); gangIndex++) {
                objects.add(podGroup(gangIndex, Math.min(gang, pods - gangIndex * gang)));
            }
        }
        for (int index = 0; index < pods; index++) {
            objects.add(pod(side, index));
        }
        return objects;
    }

    private GenericKubernetesResource podGroup(int gangIndex, int members) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(POD_GROUP_API)
                .withKind("PodGroup")
                .withNewMetadata().withName(groupName(gangIndex)).withNamespace(namespace).endMetadata()
                .addToAdditionalProperties("spec", Map.of("minMember", members, "queue", "default"))
                .build();
    }

    private Pod pod(Side side, int index) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(podName(index)).withNamespace(namespace).endMetadata();
        if (side.gangs()) {
            pod.editMetadata().addToAnnotations(GROUP_ANNOTATION, groupName(index / gang)).endMetadata();
        }
        return pod.withNewSpec()
                .withSchedulerName(side.schedulerName())
                .withAutomountServiceAccountToken(false)
                .addNewContainer().withName("main").withImage("busybox")
                .withNewResources()
                .addToRequests("cpu", new Quantity(CPU))
                .addToRequests("memory", new Quantity(MEMORY))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    /**
     * Creates {@code side}'s objects with {@code concurrency} requests in flight, PodGroups before pods,
     * and returns once all are created.
     */
    void create(KubernetesClient client, Side side, int concurrency) throws InterruptedException {
        List<HasMetadata> objects = objects(side);
        List<HasMetadata> groups = objects.stream().filter(GenericKubernetesResource.class::isInstance).toList();
        List<HasMetadata> podsOnly = objects.stream().filter(Pod.class::isInstance).toList();
        ExecutorService executor = Executors.newFixedThreadPool(concurrency);
        try {
            createAll(client, executor, groups);
            createAll(client, executor, podsOnly);
        } finally {
            executor.shutdownNow();
        }
    }

    private static void createAll(KubernetesClient client, ExecutorService executor, List<HasMetadata> objects)
            throws InterruptedException {
        List<Future<HasMetadata>> created = new ArrayList<>();
        for (HasMetadata object : objects) {
            created.add(executor.submit(() -> client.resource(object).create()));
        }
        for (Future<HasMetadata> future : created) {
            try {
                future.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("cannot create an object of the workload: " + e.getCause().getMessage(), e.getCause());
            }
        }
    }
}
