package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.inject.Injector;
import dev.muster.embedded.EmbeddedApiServer;
import dev.muster.embedded.NodePool;
import dev.muster.embedded.SimulatedNodes;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.TaskId;
import dev.muster.runtime.KubernetesRuntime;
import dev.muster.runtime.RuntimeOptions;
import dev.muster.runtime.binding.BindRequest;
import dev.muster.runtime.binding.BindResult;
import dev.muster.runtime.binding.Binder;
import dev.muster.runtime.informers.UntypedClient;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Pods bound per second end to end through the embedded API server: the gangs' PodGroups and pods
 * are created first, then the scheduler starts (informers list, cycles decide, binds go over HTTP),
 * and the clock stops when a separate watch has seen every pod bound. A second phase times the write
 * path alone: as many new pods bound by the {@link Binder}, round robin over the nodes, with no session.
 */
final class EmbeddedBench {
    private static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups")
            .withNamespaced(true).build();
    private static final ResourceDefinitionContext PODS = new ResourceDefinitionContext.Builder()
            .withVersion("v1").withKind("Pod").withPlural("pods").withNamespaced(true).build();
    private static final int CREATORS = 8;

    /** What a run measured. */
    record Result(int nodes, int pods, int bound, double createSeconds, double bindSeconds, double bindCpuSeconds, int written,
            double writeSeconds) {
        long podsPerSecond() {
            return Math.round(bound / Math.max(bindSeconds, 1e-9));
        }

        long writesPerSecond() {
            return Math.round(written / Math.max(writeSeconds, 1e-9));
        }
    }

    private final SchedulerConfigText config;
    private final Duration period;
    private final Clock clock;

    EmbeddedBench(SchedulerConfigText config, Duration period, Clock clock) {
        this.config = requireNonNull(config, "config is null");
        this.period = requireNonNull(period, "period is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    Result run(int nodes, int pods, int gang, Duration timeout) throws InterruptedException, ExecutionException {
        try (EmbeddedApiServer server = EmbeddedApiServer.start(0);
                KubernetesClient client = server.newClient()) {
            List<String> nodeNames = SimulatedNodes.create(client, List.of(NodePool.parse(nodes + ":cpu=32,memory=128Gi")));
            long createStart = System.nanoTime();
            create(client, "bench", pods, gang);
            double createSeconds = (System.nanoTime() - createStart) / 1e9;

            Set<String> bound = ConcurrentHashMap.newKeySet();
            CountDownLatch allBound = new CountDownLatch(1);
            // the observer reads pods generically, as the scheduler does: a typed watch of 10,000 binds cost
            // as much CPU as the scheduler's own, on the same two cores
            KubernetesClient observer = UntypedClient.of(client);
            SharedIndexInformer<GenericKubernetesResource> watch = observer.genericKubernetesResources(PODS).inNamespace("bench")
                    .inform(new ResourceEventHandler<>() {
                        @Override
                        public void onAdd(GenericKubernetesResource pod) {
                            onUpdate(pod, pod);
                        }

                        @Override
                        public void onUpdate(GenericKubernetesResource previous, GenericKubernetesResource pod) {
                            if (pod.get("spec", "nodeName") != null && bound.add(pod.getMetadata().getName()) && bound.size() == pods) {
                                allBound.countDown();
                            }
                        }

                        @Override
                        public void onDelete(GenericKubernetesResource pod, boolean finalStateUnknown) {}
                    }, 0);
            Injector injector = RuntimeAssembly.injector(client, clock, new RuntimeOptions(config.source(), config.text(),
                    Set.of(EmbeddedCluster.SCHEDULER_NAME), period, Optional.empty()), List.of());
            KubernetesRuntime runtime = injector.getInstance(KubernetesRuntime.class);
            long bindStart = System.nanoTime();
            long bindCpuStart = processCpuNanos();
            try {
                runtime.start();
                allBound.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } finally {
                runtime.stop();
                watch.stop();
                observer.close();
            }
            double bindSeconds = (System.nanoTime() - bindStart) / 1e9;
            double bindCpuSeconds = (processCpuNanos() - bindCpuStart) / 1e9;

            create(client, "bench-writes", pods, gang);
            List<BindRequest> requests = new ArrayList<>();
            for (int index = 0; index < pods; index++) {
                requests.add(new BindRequest(new TaskId("bench-writes", String.format("job-%05d-worker-%d", index / gang, index % gang)), "",
                        new NodeName(nodeNames.get(index % nodeNames.size()))));
            }
            // the runtime's own binder, its loop stopped: the write path alone, as the loop's binds go out
            Binder binder = injector.getInstance(Binder.class);
            long writeStart = System.nanoTime();
            long written = binder.bind(requests).stream().filter(result -> result.status() == BindResult.Status.BOUND).count();
            double writeSeconds = (System.nanoTime() - writeStart) / 1e9;
            return new Result(nodes, pods, bound.size(), createSeconds, bindSeconds, bindCpuSeconds, (int) written, writeSeconds);
        }
    }

    /**
     * CPU time of the whole JVM (every thread: API server, clients, scheduler, GC), or -1 where the JVM
     * does not tell. Unlike wall time it hardly moves with other processes' load, so runs on a busy
     * machine can still be compared.
     */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    private static void create(KubernetesClient client, String namespace, int pods, int gang)
            throws InterruptedException, ExecutionException {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
        ExecutorService creators = Executors.newFixedThreadPool(CREATORS);
        try {
            List<Future<?>> created = new ArrayList<>();
            int jobs = (pods + gang - 1) / gang;
            for (int job = 0; job < jobs; job++) {
                String name = String.format("job-%05d", job);
                int size = Math.min(gang, pods - job * gang);
                created.add(creators.submit(() -> {
                    client.genericKubernetesResources(POD_GROUPS).inNamespace(namespace).resource(podGroup(namespace, name, size)).create();
                    for (int index = 0; index < size; index++) {
                        client.pods().inNamespace(namespace).resource(pod(namespace, name, index)).create();
                    }
                }));
            }
            for (Future<?> future : created) {
                future.get();
            }
        } finally {
            creators.shutdownNow();
        }
    }

    private static GenericKubernetesResource podGroup(String namespace, String name, int size) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("minMember", size, "queue", "default")))
                .build();
    }

    private static Pod pod(String namespace, String job, int index) {
        return new PodBuilder()
                .withNewMetadata()
                    .withName(job + "-worker-" + index)
                    .withNamespace(namespace)
                    .addToAnnotations("scheduling.k8s.io/group-name", job)
                .endMetadata()
                .withNewSpec()
                    .withSchedulerName(EmbeddedCluster.SCHEDULER_NAME)
                    .addNewContainer()
                        .withName("main")
                        .withImage("busybox")
                        .withNewResources()
                            .addToRequests("cpu", new Quantity("1"))
                            .addToRequests("memory", new Quantity("2Gi"))
                        .endResources()
                    .endContainer()
                .endSpec()
                .build();
    }
}
