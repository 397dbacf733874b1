package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.runtime.binding.EventRecorder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a {@link GangPlan}: creates each PodGroup that is missing (or raises its {@code minMember}),
 * then, pod by pod, names its group in the group annotation and removes the bridge's scheduling gate in
 * one patch, so a pod becomes schedulable only once it names its group. A pod whose node is listed but in
 * no gang loses the gate, and a held one ({@code muster.dev/gang: "true"}, no group) is let go by setting
 * {@code muster.dev/gang: "false"}, so it runs in an automatic PodGroup of its own. Each problem is
 * posted once per term as a Warning Event on the Workflow.
 */
@ThreadSafe
final class GangWriter {
    static final String COMPONENT = "muster-argo-bridge";
    static final String PROBLEM_REASON = "GangIgnored";
    static final String DAG_PROBLEM_REASON = "DagIgnored";
    private static final Logger log = LoggerFactory.getLogger(GangWriter.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final EventRecorder events;
    private final Function<PodGroupSpec, Optional<GenericKubernetesResource>> existingPodGroup;
    private final Set<String> reported = ConcurrentHashMap.newKeySet();
    /** Automatic PodGroups already given their pod's DAG hints, with the hints. */
    private final Set<String> hinted = ConcurrentHashMap.newKeySet();

    GangWriter(KubernetesClient client, EventRecorder events, Function<PodGroupSpec, Optional<GenericKubernetesResource>> existingPodGroup) {
        this.client = requireNonNull(client, "client is null");
        this.events = requireNonNull(events, "events is null");
        this.existingPodGroup = requireNonNull(existingPodGroup, "existingPodGroup is null");
    }

    void write(Workflow workflow, GangPlan plan, List<Pod> pods) {
        for (GangProblem problem : plan.problems()) {
            report(workflow, PROBLEM_REASON, problem.describe());
        }
        for (PodGroupSpec podGroup : plan.podGroups()) {
            ensure(podGroup);
        }
        for (Pod pod : pods) {
            String nodeId = pod.getMetadata().getAnnotations() == null ? null
                    : pod.getMetadata().getAnnotations().get(ArgoApi.NODE_ID_ANNOTATION);
            if (nodeId != null && plan.listedNodes().contains(nodeId)) {
                release(pod, plan.group(nodeId));
            }
        }
    }

    /**
     * Gives the DAG hints to the PodGroup of each pending pod of the workflow that is in no gang: the
     * automatic PodGroup the scheduler made for it, named by its group annotation. A pod bound before
     * the bridge saw it needs none. The gangs' PodGroups get theirs from the {@link GangPlan}.
     */
    void writeDagHints(Workflow workflow, DagPlan dag, GangPlan plan, List<Pod> pods) {
        for (DagProblem problem : dag.problems()) {
            report(workflow, DAG_PROBLEM_REASON, problem.describe());
        }
        for (Pod pod : pods) {
            Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
            String nodeId = annotations.get(ArgoApi.NODE_ID_ANNOTATION);
            String group = annotations.get(SchedulingApi.GROUP_NAME_ANNOTATION);
            if (nodeId == null || group == null || plan.group(nodeId).isPresent() || pod.getSpec().getNodeName() != null
                    || dag.forNode(nodeId).isEmpty() || !hinted.add(pod.getMetadata().getNamespace() + "/" + group + " " + dag.forNode(nodeId))) {
                continue;
            }
            ObjectNode patch = JSON.createObjectNode();
            patch.putObject("metadata").set("annotations", JSON.valueToTree(dag.forNode(nodeId)));
            try {
                client.genericKubernetesResources(PodGroupManifests.POD_GROUPS).inNamespace(pod.getMetadata().getNamespace()).withName(group)
                        .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
            } catch (KubernetesClientException e) {
                // not there yet: the scheduler annotates the pod once it has made it, and that change brings the pod back here
                hinted.remove(pod.getMetadata().getNamespace() + "/" + group + " " + dag.forNode(nodeId));
                if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                    throw e;
                }
            }
        }
    }

    /** Lets every pod of a Workflow that cannot be read go without a gang, so none is held for ever. */
    void releaseAll(List<Pod> pods) {
        pods.forEach(pod -> release(pod, Optional.empty()));
    }

    void report(Workflow workflow, String message) {
        report(workflow, PROBLEM_REASON, message);
    }

    private void report(Workflow workflow, String reason, String message) {
        if (!reported.add(workflow.uid() + " " + message)) {
            return;
        }
        log.info("workflow={}: {}", workflow.key(), message);
        EventRecorder.Subject subject = new EventRecorder.Subject(ArgoApi.API_VERSION, ArgoApi.WORKFLOW_KIND, workflow.namespace(),
                workflow.name(), workflow.uid());
        if (!events.record(subject, true, reason, message).join()) {
            log.warn("event not recorded workflow={} reason={}", workflow.key(), reason);
        }
    }

    private void ensure(PodGroupSpec podGroup) {
        Optional<GenericKubernetesResource> existing = existingPodGroup.apply(podGroup);
        if (existing.isEmpty()) {
            try {
                client.genericKubernetesResources(PodGroupManifests.POD_GROUPS).inNamespace(podGroup.namespace())
                        .resource(JSON.convertValue(PodGroupManifests.toJson(podGroup), GenericKubernetesResource.class)).create();
                log.info("podgroup={}/{} created for workflow={} template={} minMember={}", podGroup.namespace(), podGroup.name(),
                        podGroup.workflowName(), podGroup.template(), podGroup.minMember());
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
            }
            return;
        }
        Map<String, String> present = existing.get().getMetadata().getAnnotations() == null ? Map.of()
                : existing.get().getMetadata().getAnnotations();
        if (podGroup.dagAnnotations().entrySet().stream().anyMatch(entry -> !entry.getValue().equals(present.get(entry.getKey())))) {
            // the remaining path changes as earlier runs of the workflow finish
            ObjectNode patch = JSON.createObjectNode();
            patch.putObject("metadata").set("annotations", JSON.valueToTree(podGroup.dagAnnotations()));
            client.genericKubernetesResources(PodGroupManifests.POD_GROUPS).inNamespace(podGroup.namespace()).withName(podGroup.name())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
        }
        JsonNode spec = JSON.valueToTree(existing.get().getAdditionalProperties().getOrDefault("spec", Map.of()));
        int members = spec.path("minMember").asInt(-1);
        if (members > podGroup.minMember()) {
            // a gang is never made smaller while its members may be placed against it
            return;
        }
        ObjectNode minResources = PodGroupManifests.minResources(podGroup);
        // a group made for fewer members, or before the bridge wrote minResources, gets both
        if (members < podGroup.minMember() || (!minResources.isEmpty() && !spec.path("minResources").equals(minResources))) {
            ObjectNode patch = JSON.createObjectNode();
            ObjectNode changed = patch.putObject("spec").put("minMember", podGroup.minMember());
            if (!minResources.isEmpty()) {
                changed.set("minResources", minResources);
            }
            client.genericKubernetesResources(PodGroupManifests.POD_GROUPS).inNamespace(podGroup.namespace()).withName(podGroup.name())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
        }
    }

    private void release(Pod pod, Optional<String> group) {
        List<PodSchedulingGate> gates = pod.getSpec().getSchedulingGates() == null ? List.of() : pod.getSpec().getSchedulingGates();
        ImmutableList<PodSchedulingGate> others = gates.stream()
                .filter(gate -> !Objects.equals(gate.getName(), GangAnnotations.SCHEDULING_GATE))
                .collect(ImmutableList.toImmutableList());
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
        String current = annotations.get(SchedulingApi.GROUP_NAME_ANNOTATION);
        boolean held = current == null && "true".equals(annotations.get(GangAnnotations.GANG));
        boolean annotated = group.map(name -> name.equals(current)).orElse(!held);
        if (annotated && others.size() == gates.size()) {
            return;
        }
        ObjectNode patch = JSON.createObjectNode();
        if (!annotated) {
            ObjectNode changed = patch.putObject("metadata").putObject("annotations");
            group.ifPresentOrElse(name -> changed.put(SchedulingApi.GROUP_NAME_ANNOTATION, name),
                    () -> changed.put(GangAnnotations.GANG, "false"));
        }
        if (others.size() != gates.size()) {
            // a merge patch replaces the list: what stays is every gate but the bridge's
            patch.putObject("spec").set("schedulingGates", others.isEmpty() ? JSON.nullNode() : JSON.valueToTree(others));
        }
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
            log.debug("pod={}/{} group={} released", pod.getMetadata().getNamespace(), pod.getMetadata().getName(), group.orElse("none"));
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
        }
    }
}
