package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.engine.api.GoDuration;
import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet of every simulated node: a pod bound to a node becomes Running; after the duration in
 * its {@code muster.dev/duration} annotation it Succeeds, or Fails when its {@code muster.dev/exit-code} annotation is
 * not 0. A pod without a duration runs until deleted; one deleted gracefully (a real kube-apiserver leaves that to
 * the kubelet) is then deleted for good. Pods that were Running before a restart finish
 * at their start time plus their duration. The status is written as kubelet v1.34 writes it
 * ({@link KubeletPodStatus}); the nodes' Leases and condition heartbeats are kept fresh
 * ({@link NodeHeartbeats}).
 *
 * <p>Given {@link #runArgoExecutors(ArgoExecutorPods)}, a pod whose every container is Argo's executor (an Argo resource
 * template's) runs for real instead: its init containers, then its containers, as local processes; it is Running once its
 * init containers have succeeded and ends with its containers, Succeeded or Failed by their exit codes, whatever its
 * duration annotation says. Given {@link #refuseArgoExecutors(String)} instead (the executor cannot run on this
 * machine), such a pod fails at once with that reason, so the workflow says why rather than pretending the template's
 * object was made.
 *
 * <p>Informer callbacks only record and schedule; the status writes run on the kubelet's own thread, or on the thread that
 * waits for a pod's processes.
 */
@ThreadSafe
public final class SimulatedKubelet implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SimulatedKubelet.class);

    private final KubernetesClient client;
    private final Clock clock;
    private final NodeHeartbeats heartbeats;
    private final ScheduledExecutorService executor;
    /** Pods started or being started, by uid, with their completion if they have a duration. */
    private final Map<String, Optional<ScheduledFuture<?>>> started = new ConcurrentHashMap<>();
    /** Uids of pods being deleted, whose final deletion is sent or under way. */
    private final Set<String> terminating = ConcurrentHashMap.newKeySet();
    /** Hands out pod IPs, which only make {@code kubectl get pods -o wide} look familiar. */
    private final AtomicInteger addresses = new AtomicInteger();
    private volatile SharedIndexInformer<Pod> informer;
    private volatile Optional<KubeletApi> api = Optional.empty();
    private volatile Optional<ArgoExecutorPods> argoExecutors = Optional.empty();
    private volatile Optional<String> argoExecutorsRefused = Optional.empty();
    /** Threads that wait for the processes of pods run for real, one per pod. */
    private final ExecutorService processes = Executors.newCachedThreadPool(
            new ThreadFactoryBuilder().setNameFormat("muster-kubelet-process-%d").setDaemon(true).build());

    public SimulatedKubelet(KubernetesClient client, Clock clock) {
        this.client = requireNonNull(client, "client is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.heartbeats = new NodeHeartbeats(client, clock);
        this.executor = Executors.newSingleThreadScheduledExecutor(
                new ThreadFactoryBuilder().setNameFormat("muster-kubelet").setDaemon(true).build());
    }

    /**
     * Serves the kubelet API a real kube-apiserver dials to read a pod's log ({@link KubeletApi}), until
     * {@link #close()}; the nodes are to report the endpoint returned
     * ({@link SimulatedNodes#create(KubernetesClient, List, Clock, Optional)}). The embedded server needs none.
     */
    public KubeletEndpoint serveApi() {
        KubeletApi served = KubeletApi.start((namespace, name) -> Optional.ofNullable(client.pods().inNamespace(namespace).withName(name).get()),
                clock);
        api = Optional.of(served);
        return served.endpoint();
    }

    /**
     * From now on, runs the pods whose every container is Argo's executor as local processes ({@link ArgoExecutorPods});
     * the kubelet closes them with itself.
     */
    public void runArgoExecutors(ArgoExecutorPods executors) {
        argoExecutors = Optional.of(requireNonNull(executors, "executors is null"));
    }

    /**
     * From now on, fails the pods whose every container is Argo's executor at once, their status message saying
     * {@code why} they cannot run here; every other pod runs as before.
     */
    public void refuseArgoExecutors(String why) {
        argoExecutorsRefused = Optional.of(requireNonNull(why, "why is null"));
    }

    /** Starts the nodes' heartbeats, then watches every namespace's pods and runs those bound to a node. */
    public void start() {
        heartbeats.start();
        heartbeats.beat();
        long interval = NodeHeartbeats.RENEW_INTERVAL.toMillis();
        executor.scheduleWithFixedDelay(this::beat, interval, interval, TimeUnit.MILLISECONDS);
        informer = client.pods().inAnyNamespace().inform(new Handler(), 0);
    }

    private void beat() {
        try {
            heartbeats.beat();
        } catch (RuntimeException e) {
            // a failed round must not end the schedule: the next one tries again
            log.warn("node heartbeats failed: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        SharedIndexInformer<Pod> running = informer;
        if (running != null) {
            running.stop();
        }
        heartbeats.stop();
        executor.shutdownNow();
        processes.shutdownNow();
        argoExecutors.ifPresent(ArgoExecutorPods::close);
        api.ifPresent(KubeletApi::close);
    }

    private void observe(Pod pod) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        String uid = pod.getMetadata().getUid();
        if (node == null || node.isEmpty() || uid == null) {
            return;
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            terminate(pod);
            return;
        }
        if (started.containsKey(uid)) {
            return;
        }
        String phase = pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
        switch (phase) {
            case "Pending" -> {
                started.put(uid, Optional.empty());
                Optional<ArgoExecutorPods> executors = argoExecutors;
                Optional<String> refused = argoExecutorsRefused;
                boolean executorPod = (executors.isPresent() || refused.isPresent()) && ArgoExecutorPods.runs(pod);
                if (executorPod && executors.isPresent()) {
                    processes.execute(() -> runProcesses(executors.get(), pod));
                } else if (executorPod) {
                    executor.execute(() -> writeStatus(pod, "Failed", KubeletPodStatus.finished(pod, clock.instant(), clock.instant(),
                            ContainerExit.CANNOT_RUN, refused.get())));
                } else {
                    executor.execute(() -> run(pod));
                }
            }
            case "Running" -> started.put(uid, scheduleCompletion(pod, startTime(pod)));
            default -> started.put(uid, Optional.empty());
        }
    }

    private void forget(Pod pod) {
        Optional<ScheduledFuture<?>> completion = started.remove(pod.getMetadata().getUid());
        if (completion != null) {
            completion.ifPresent(future -> future.cancel(false));
        }
        terminating.remove(pod.getMetadata().getUid());
        argoExecutors.ifPresent(executors -> executors.remove(pod.getMetadata().getUid()));
    }

    /**
     * A bound pod deleted gracefully: a real kube-apiserver only marks it (deletionTimestamp) and leaves the
     * rest to the node's kubelet, which stops its containers and then deletes it for good (grace period 0).
     * The simulated containers stop at once, so the pod goes at once. The embedded server deletes a pod
     * without finalizers at once itself.
     */
    private void terminate(Pod pod) {
        if (!terminating.add(pod.getMetadata().getUid())) {
            return;
        }
        Optional<ScheduledFuture<?>> completion = started.get(pod.getMetadata().getUid());
        if (completion != null) {
            completion.ifPresent(future -> future.cancel(false));
        }
        argoExecutors.ifPresent(executors -> executors.stop(pod.getMetadata().getUid()));
        executor.execute(() -> remove(pod));
    }

    private void remove(Pod pod) {
        String name = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).withGracePeriod(0).delete();
            log.debug("pod={} node={} deleted after its graceful deletion began", name, pod.getSpec().getNodeName());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                // the pod's next change tells again
                terminating.remove(pod.getMetadata().getUid());
                log.warn("pod={}: cannot finish its deletion: {}", name, e.getMessage());
            }
        }
    }

    private void run(Pod pod) {
        Instant now = clock.instant();
        if (writeStatus(pod, "Running", KubeletPodStatus.running(pod, now, hostIp(pod.getSpec().getNodeName()), nextPodIp()))) {
            started.computeIfPresent(pod.getMetadata().getUid(), (uid, none) -> scheduleCompletion(pod, now));
        }
    }

    /** Runs an executor pod's init containers, then (Running) its containers, and ends it as they exit; blocks. */
    private void runProcesses(ArgoExecutorPods executors, Pod pod) {
        Instant startedAt = clock.instant();
        ContainerExit exit = executors.runInit(pod);
        if (exit.exitCode() == 0) {
            startedAt = clock.instant();
            if (!writeStatus(pod, "Running", KubeletPodStatus.running(pod, startedAt, hostIp(pod.getSpec().getNodeName()), nextPodIp()))) {
                executors.stop(pod.getMetadata().getUid());
                return;
            }
            exit = executors.runMain(pod);
        }
        writeStatus(pod, exit.exitCode() == 0 ? "Succeeded" : "Failed",
                KubeletPodStatus.finished(pod, startedAt, clock.instant(), exit.exitCode(), exit.message()));
    }

    private String nextPodIp() {
        int address = addresses.incrementAndGet();
        return "10.244." + (address / 250 % 250) + "." + (address % 250 + 1);
    }

    /**
     * The node's {@code InternalIP}, as the kubelet reports it as its pods' {@code hostIP}; read from the
     * API when the node informer has not heard of the node yet (a pod bound the instant its node was made).
     */
    private String hostIp(String node) {
        Optional<Node> known = heartbeats.node(node).or(() -> Optional.ofNullable(client.nodes().withName(node).get()));
        return known.map(Node::getStatus).map(NodeStatus::getAddresses).stream().flatMap(List::stream)
                .filter(address -> "InternalIP".equals(address.getType())).map(NodeAddress::getAddress).findFirst()
                .orElse("10.0.0.1");
    }

    private Optional<ScheduledFuture<?>> scheduleCompletion(Pod pod, Instant startedAt) {
        Optional<Duration> duration = duration(pod);
        if (duration.isEmpty()) {
            return Optional.empty();
        }
        long delay = Math.max(0, Duration.between(clock.instant(), startedAt.plus(duration.get())).toMillis());
        return Optional.of(executor.schedule(() -> finish(pod, startedAt), delay, TimeUnit.MILLISECONDS));
    }

    private void finish(Pod pod, Instant startedAt) {
        int exitCode = exitCode(pod);
        writeStatus(pod, exitCode == 0 ? "Succeeded" : "Failed", KubeletPodStatus.finished(pod, startedAt, clock.instant(), exitCode));
    }

    private boolean writeStatus(Pod pod, String phase, ObjectNode patch) {
        String name = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).subresource("status")
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch.toString());
            log.debug("pod={} node={} phase={}", name, pod.getSpec().getNodeName(), phase);
            return true;
        } catch (KubernetesClientException e) {
            // a pod deleted meanwhile needs nothing more; anything else is told once, and the pod stays as it is
            if (e.getCode() != 404) {
                log.warn("pod={}: cannot write phase {}: {}", name, phase, e.getMessage());
            }
            return false;
        }
    }

    private static Optional<Duration> duration(Pod pod) {
        String text = annotation(pod, SchedulingApi.DURATION_ANNOTATION);
        if (text == null) {
            return Optional.empty();
        }
        try {
            Duration duration = GoDuration.parse(text);
            if (duration.isNegative()) {
                throw new IllegalArgumentException("'" + text + "' is negative");
            }
            return Optional.of(duration);
        } catch (IllegalArgumentException e) {
            log.warn("pod={}/{}: annotation {}: {}; it runs until deleted", pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(), SchedulingApi.DURATION_ANNOTATION, e.getMessage());
            return Optional.empty();
        }
    }

    private static int exitCode(Pod pod) {
        String text = annotation(pod, SchedulingApi.EXIT_CODE_ANNOTATION);
        if (text == null) {
            return 0;
        }
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            // a code that is not a number still says the pod fails
            return 1;
        }
    }

    private static String annotation(Pod pod, String key) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(key);
    }

    private Instant startTime(Pod pod) {
        String text = pod.getStatus().getStartTime();
        return text == null ? clock.instant() : Instant.parse(text);
    }

    private final class Handler implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            observe(pod);
        }

        @Override
        public void onUpdate(Pod previous, Pod pod) {
            observe(pod);
        }

        @Override
        public void onDelete(Pod pod, boolean finalStateUnknown) {
            forget(pod);
        }
    }
}
