package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.engine.api.GoDuration;
import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.Container;
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
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
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
 * not 0. A pod without a duration runs until deleted. Pods that were Running before a restart finish
 * at their start time plus their duration.
 *
 * <p>Informer callbacks only record and schedule; the status writes run on the kubelet's own thread.
 */
@ThreadSafe
public final class SimulatedKubelet implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SimulatedKubelet.class);

    private final KubernetesClient client;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper();
    private final ScheduledExecutorService executor;
    /** Pods started or being started, by uid, with their completion if they have a duration. */
    private final Map<String, Optional<ScheduledFuture<?>>> started = new ConcurrentHashMap<>();
    /** Hands out pod IPs, which only make {@code kubectl get pods -o wide} look familiar. */
    private final AtomicInteger addresses = new AtomicInteger();
    private volatile SharedIndexInformer<Pod> informer;

    public SimulatedKubelet(KubernetesClient client, Clock clock) {
        this.client = requireNonNull(client, "client is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.executor = Executors.newSingleThreadScheduledExecutor(
                new ThreadFactoryBuilder().setNameFormat("muster-kubelet").setDaemon(true).build());
    }

    /** Watches every namespace's pods and runs those bound to a node. */
    public void start() {
        informer = client.pods().inAnyNamespace().inform(new Handler(), 0);
    }

    @Override
    public void close() {
        SharedIndexInformer<Pod> running = informer;
        if (running != null) {
            running.stop();
        }
        executor.shutdownNow();
    }

    private void observe(Pod pod) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        String uid = pod.getMetadata().getUid();
        if (node == null || node.isEmpty() || uid == null || started.containsKey(uid)) {
            return;
        }
        String phase = pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
        switch (phase) {
            case "Pending" -> {
                started.put(uid, Optional.empty());
                executor.execute(() -> run(pod));
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
    }

    private void run(Pod pod) {
        Instant now = clock.instant();
        int address = addresses.incrementAndGet();
        ObjectNode status = json.createObjectNode().put("phase", "Running").put("startTime", timestamp(now))
                .put("podIP", "10.244." + (address / 250 % 250) + "." + (address % 250 + 1));
        ArrayNode conditions = status.putArray("conditions");
        for (String type : new String[] {"PodScheduled", "Initialized", "ContainersReady", "Ready"}) {
            conditions.addObject().put("type", type).put("status", "True").put("lastTransitionTime", timestamp(now));
        }
        ArrayNode containers = status.putArray("containerStatuses");
        for (Container container : pod.getSpec().getContainers()) {
            ObjectNode containerStatus = containerStatus(containers, container, true);
            containerStatus.putObject("state").putObject("running").put("startedAt", timestamp(now));
        }
        if (writeStatus(pod, status)) {
            started.computeIfPresent(pod.getMetadata().getUid(), (uid, none) -> scheduleCompletion(pod, now));
        }
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
        Instant now = clock.instant();
        ObjectNode status = json.createObjectNode().put("phase", exitCode == 0 ? "Succeeded" : "Failed");
        ArrayNode conditions = status.putArray("conditions");
        for (String type : new String[] {"ContainersReady", "Ready"}) {
            conditions.addObject().put("type", type).put("status", "False").put("reason", "PodCompleted")
                    .put("lastTransitionTime", timestamp(now));
        }
        ArrayNode containers = status.putArray("containerStatuses");
        for (Container container : pod.getSpec().getContainers()) {
            containerStatus(containers, container, false).putObject("state").putObject("terminated")
                    .put("exitCode", exitCode)
                    .put("reason", exitCode == 0 ? "Completed" : "Error")
                    .put("startedAt", timestamp(startedAt))
                    .put("finishedAt", timestamp(now));
        }
        writeStatus(pod, status);
    }

    private static ObjectNode containerStatus(ArrayNode containers, Container container, boolean ready) {
        return containers.addObject()
                .put("name", container.getName())
                .put("image", container.getImage() == null ? "" : container.getImage())
                .put("imageID", "")
                .put("ready", ready)
                .put("restartCount", 0)
                .put("started", ready);
    }

    private boolean writeStatus(Pod pod, ObjectNode status) {
        String name = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), json.createObjectNode().set("status", status).toString());
            log.debug("pod={} node={} phase={}", name, pod.getSpec().getNodeName(), status.path("phase").asText());
            return true;
        } catch (KubernetesClientException e) {
            // a pod deleted meanwhile needs nothing more; anything else is told once, and the pod stays as it is
            if (e.getCode() != 404) {
                log.warn("pod={}: cannot write phase {}: {}", name, status.path("phase").asText(), e.getMessage());
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

    private static String timestamp(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
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
