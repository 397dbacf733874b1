package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What kube-apiserver's pod strategy sets on create ({@code PrepareForCreate}): the status a client
 * sent is replaced by {@code phase: Pending} and the pod's QoS class, computed as
 * {@code qos.GetPodQOS} computes it (a request defaults to the limit when only the limit is set, as
 * the v1 defaults do). Spark's executor tracking read a created pod's status and met null. The
 * spec gets what {@code SetDefaults_PodSpec} (k8s.io/kubernetes v1.34.4 {@code pkg/apis/core/v1/defaults.go})
 * sets when absent: {@code dnsPolicy: ClusterFirst}, {@code restartPolicy: Always}, an empty
 * {@code securityContext}, {@code terminationGracePeriodSeconds: 30} and {@code schedulerName:
 * default-scheduler}, without which kube-scheduler takes the pod for another scheduler's; its containers
 * and volumes get {@link ContainerDefaults}; a pod (not a template) gets {@code SetDefaults_Pod}'s
 * requests from limits and {@code enableServiceLinks: true}.
 */
final class PodDefaults {
    private static final List<String> QOS_RESOURCES = List.of("cpu", "memory");

    private PodDefaults() {}

    /** Sets the status a new pod starts with. */
    static void onCreate(ObjectNode pod) {
        if (pod.path("spec") instanceof ObjectNode spec) {
            defaultSpec(spec);
            podOnly(spec);
        }
        ObjectNode status = pod.putObject("status");
        status.put("phase", "Pending");
        status.put("qosClass", qosClass(pod.path("spec")));
    }

    /**
     * What kube-apiserver's binding ({@code BindingREST.assignPod}) does to the pod: sets
     * {@code spec.nodeName}, copies the binding's annotations, and sets the {@code PodScheduled}
     * condition {@code True} as {@code podutil.UpdatePodCondition} does (its transition time now unless
     * it was {@code True} already; a reason or message of an earlier {@code Unschedulable} goes).
     */
    static void onBind(ObjectNode pod, String node, JsonNode annotations, String now) {
        pod.withObjectProperty("spec").put("nodeName", node);
        if (annotations.isObject() && !annotations.isEmpty()) {
            ObjectNode podAnnotations = pod.withObjectProperty("metadata").withObjectProperty("annotations");
            annotations.properties().forEach(entry -> podAnnotations.set(entry.getKey(), entry.getValue()));
        }
        ArrayNode conditions = pod.withObjectProperty("status").withArrayProperty("conditions");
        ObjectNode scheduled = JsonNodeFactory.instance.objectNode().put("type", "PodScheduled").put("status", "True")
                .put("lastProbeTime", (String) null).put("lastTransitionTime", now);
        for (int index = 0; index < conditions.size(); index++) {
            JsonNode old = conditions.get(index);
            if (old.path("type").asText().equals("PodScheduled")) {
                if (old.path("status").asText().equals("True") && old.has("lastTransitionTime")) {
                    scheduled.set("lastTransitionTime", old.get("lastTransitionTime"));
                }
                conditions.set(index, scheduled);
                return;
            }
        }
        conditions.add(scheduled);
    }

    /** {@code SetDefaults_PodSpec}'s fields, for a pod's spec and a pod template's alike. */
    static void defaultSpec(ObjectNode spec) {
        FieldDefaults.putIfEmpty(spec, "dnsPolicy", "ClusterFirst");
        FieldDefaults.putIfEmpty(spec, "restartPolicy", "Always");
        if (!spec.hasNonNull("securityContext")) {
            spec.putObject("securityContext");
        }
        if (!spec.hasNonNull("terminationGracePeriodSeconds")) {
            spec.put("terminationGracePeriodSeconds", 30);
        }
        FieldDefaults.putIfEmpty(spec, "schedulerName", SchedulingApi.DEFAULT_SCHEDULER_NAME);
        ContainerDefaults.defaultSpec(spec);
    }

    /**
     * {@code SetDefaults_Pod}, for a pod and not a template: a container's requests default to its limits, resource by
     * resource, and {@code enableServiceLinks} to true.
     */
    private static void podOnly(ObjectNode spec) {
        for (String containers : List.of("initContainers", "containers")) {
            for (JsonNode container : spec.path(containers)) {
                if (container.path("resources").path("limits") instanceof ObjectNode limits && container.path("resources") instanceof ObjectNode resources) {
                    ObjectNode requests = resources.withObjectProperty("requests");
                    limits.properties().forEach(limit -> {
                        if (!requests.has(limit.getKey())) {
                            requests.set(limit.getKey(), limit.getValue());
                        }
                    });
                }
            }
        }
        if (!spec.hasNonNull("enableServiceLinks")) {
            spec.put("enableServiceLinks", true);
        }
    }

    /** {@code BestEffort}, {@code Guaranteed} or {@code Burstable}, from the containers' cpu and memory requests and limits. */
    static String qosClass(JsonNode spec) {
        Map<String, BigDecimal> requests = new HashMap<>();
        Map<String, BigDecimal> limits = new HashMap<>();
        boolean guaranteed = true;
        for (String containers : List.of("initContainers", "containers")) {
            for (JsonNode container : spec.path(containers)) {
                JsonNode resources = container.path("resources");
                Set<String> limited = new HashSet<>();
                for (String resource : QOS_RESOURCES) {
                    BigDecimal limit = amount(resources.path("limits").path(resource));
                    BigDecimal request = amount(resources.path("requests").path(resource));
                    if (request == null && limit != null) {
                        request = limit;
                    }
                    if (request != null && request.signum() > 0) {
                        requests.merge(resource, request, BigDecimal::add);
                    }
                    if (limit != null && limit.signum() > 0) {
                        limited.add(resource);
                        limits.merge(resource, limit, BigDecimal::add);
                    }
                }
                if (!limited.containsAll(QOS_RESOURCES)) {
                    guaranteed = false;
                }
            }
        }
        if (requests.isEmpty() && limits.isEmpty()) {
            return "BestEffort";
        }
        if (guaranteed) {
            for (Map.Entry<String, BigDecimal> request : requests.entrySet()) {
                BigDecimal limit = limits.get(request.getKey());
                if (limit == null || limit.compareTo(request.getValue()) != 0) {
                    guaranteed = false;
                    break;
                }
            }
        }
        return guaranteed && requests.size() == limits.size() ? "Guaranteed" : "Burstable";
    }

    private static BigDecimal amount(JsonNode quantity) {
        if (quantity.isMissingNode() || quantity.isNull()) {
            return null;
        }
        try {
            return Quantity.getAmountInBytes(new Quantity(quantity.asText()));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
