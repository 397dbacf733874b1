package dev.muster.embedded;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.hash.Hashing;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The status patches the simulated kubelet writes through {@code pods/status}, shaped as kubelet
 * v1.34's status manager writes them (a strategic merge patch whose {@code $setElementOrder/conditions}
 * puts the conditions in {@code generateAPIPodStatus}'s order): {@code PodReadyToStartContainers},
 * {@code Initialized}, {@code Ready}, {@code ContainersReady}, {@code PodScheduled}, each with the
 * pod's generation as {@code observedGeneration} ({@code PodObservedGenerationTracking}, on by default
 * in v1.34), and the reasons of {@code pkg/kubelet/status/generate.go} once the pod has ended
 * ({@code PodCompleted}, {@code PodFailed}). Init containers have completed before the pod runs; a
 * restartable one (a sidecar) runs beside the others.
 */
final class KubeletPodStatus {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final List<String> CONDITION_ORDER = List.of(
            "PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled");

    private KubeletPodStatus() {}

    /** The patch that makes a bound pod Running on its node, its containers started. */
    static ObjectNode running(Pod pod, Instant now, String hostIp, String podIp) {
        ObjectNode status = JSON.objectNode();
        conditionOrder(status);
        ArrayNode conditions = status.putArray("conditions");
        condition(conditions, pod, "PodReadyToStartContainers", true, "", now);
        condition(conditions, pod, "Initialized", true, "", now);
        condition(conditions, pod, "Ready", true, "", now);
        condition(conditions, pod, "ContainersReady", true, "", now);
        scheduled(conditions, pod, now);
        ArrayNode containers = status.putArray("containerStatuses");
        for (Container container : pod.getSpec().getContainers()) {
            ObjectNode containerStatus = containerStatus(containers, pod, container, true);
            containerStatus.putObject("state").putObject("running").put("startedAt", SimulatedNodes.timestamp(now));
        }
        if (!pod.getSpec().getInitContainers().isEmpty()) {
            ArrayNode initContainers = status.putArray("initContainerStatuses");
            for (Container container : pod.getSpec().getInitContainers()) {
                boolean sidecar = "Always".equals(container.getRestartPolicy());
                ObjectNode state = containerStatus(initContainers, pod, container, sidecar).putObject("state");
                if (sidecar) {
                    state.putObject("running").put("startedAt", SimulatedNodes.timestamp(now));
                } else {
                    terminated(state, pod, container, 0, now, now);
                }
            }
        }
        status.put("hostIP", hostIp);
        status.putArray("hostIPs").addObject().put("ip", hostIp);
        generation(pod).ifPresent(generation -> status.put("observedGeneration", generation));
        status.put("phase", "Running");
        status.put("podIP", podIp);
        status.putArray("podIPs").addObject().put("ip", podIp);
        status.put("startTime", SimulatedNodes.timestamp(now));
        return patch(pod, status);
    }

    /** The patch that ends a running pod: Succeeded when its exit code is 0, Failed otherwise. */
    static ObjectNode finished(Pod pod, Instant startedAt, Instant now, int exitCode) {
        return finished(pod, startedAt, now, exitCode, "");
    }

    /** The same, each container's {@code terminated} state carrying the termination message when there is one. */
    static ObjectNode finished(Pod pod, Instant startedAt, Instant now, int exitCode, String message) {
        boolean succeeded = exitCode == 0;
        String ended = succeeded ? "PodCompleted" : "PodFailed";
        ObjectNode status = JSON.objectNode();
        conditionOrder(status);
        ArrayNode conditions = status.putArray("conditions");
        condition(conditions, pod, "PodReadyToStartContainers", false, "", now);
        condition(conditions, pod, "Initialized", true, succeeded ? "PodCompleted" : "", now);
        condition(conditions, pod, "Ready", false, ended, now);
        condition(conditions, pod, "ContainersReady", false, ended, now);
        scheduled(conditions, pod, now);
        ArrayNode containers = status.putArray("containerStatuses");
        for (Container container : pod.getSpec().getContainers()) {
            ObjectNode terminated = terminated(containerStatus(containers, pod, container, false).putObject("state"), pod, container,
                    exitCode, startedAt, now);
            if (!message.isEmpty()) {
                terminated.put("message", message);
            }
        }
        generation(pod).ifPresent(generation -> status.put("observedGeneration", generation));
        status.put("phase", succeeded ? "Succeeded" : "Failed");
        return patch(pod, status);
    }

    /** A simulated container's id: {@code muster://} and a hash of the pod's uid and the container's name. */
    static String containerId(Pod pod, Container container) {
        return "muster://" + Hashing.sha256().hashString(pod.getMetadata().getUid() + "/" + container.getName(), StandardCharsets.UTF_8);
    }

    private static ObjectNode patch(Pod pod, ObjectNode status) {
        ObjectNode patch = JSON.objectNode();
        // the kubelet's patch carries the pod's uid, so it never lands on a new pod of the same name
        patch.putObject("metadata").put("uid", pod.getMetadata().getUid());
        patch.set("status", status);
        return patch;
    }

    private static void conditionOrder(ObjectNode status) {
        ArrayNode order = status.putArray("$setElementOrder/conditions");
        CONDITION_ORDER.forEach(type -> order.addObject().put("type", type));
    }

    /** A condition; its transition time moves only when its status does, as the kubelet's status manager keeps it. */
    private static void condition(ArrayNode conditions, Pod pod, String type, boolean value, String reason, Instant now) {
        ObjectNode condition = conditions.addObject().put("type", type);
        generation(pod).ifPresent(generation -> condition.put("observedGeneration", generation));
        condition.put("status", value ? "True" : "False");
        condition.putNull("lastProbeTime");
        String status = value ? "True" : "False";
        PodCondition old = existing(pod, type);
        condition.put("lastTransitionTime", old != null && status.equals(old.getStatus()) && old.getLastTransitionTime() != null
                ? old.getLastTransitionTime() : SimulatedNodes.timestamp(now));
        if (!reason.isEmpty()) {
            condition.put("reason", reason);
        } else {
            condition.putNull("reason");
        }
    }

    /** {@code PodScheduled: True}, which the binding set already unless the pod was created with its node. */
    private static void scheduled(ArrayNode conditions, Pod pod, Instant now) {
        condition(conditions, pod, "PodScheduled", true, "", now);
    }

    private static PodCondition existing(Pod pod, String type) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        return pod.getStatus().getConditions().stream().filter(condition -> type.equals(condition.getType())).findFirst().orElse(null);
    }

    private static ObjectNode containerStatus(ArrayNode containers, Pod pod, Container container, boolean running) {
        String image = container.getImage() == null ? "" : container.getImage();
        ObjectNode status = containers.addObject()
                .put("containerID", containerId(pod, container))
                .put("image", image)
                .put("imageID", image)
                .put("name", container.getName())
                .put("ready", running)
                .put("restartCount", 0)
                .put("started", running);
        status.putObject("lastState");
        return status;
    }

    private static ObjectNode terminated(ObjectNode state, Pod pod, Container container, int exitCode, Instant startedAt, Instant now) {
        return state.putObject("terminated")
                .put("containerID", containerId(pod, container))
                .put("exitCode", exitCode)
                .put("finishedAt", SimulatedNodes.timestamp(now))
                .put("reason", exitCode == 0 ? "Completed" : "Error")
                .put("startedAt", SimulatedNodes.timestamp(startedAt));
    }

    private static Optional<Long> generation(Pod pod) {
        return Optional.ofNullable(pod.getMetadata().getGeneration());
    }
}
