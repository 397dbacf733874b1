package dev.muster.bridge.argo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** A fan-out's PodGroup as the API server takes it. */
final class PodGroupManifests {
    static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups").withNamespaced(true)
            .build();
    /** On a fan-out's PodGroup: the StepGroup or TaskGroup node it was made for. */
    static final String GROUP_NODE_ANNOTATION = "muster.dev/argo-node-id";
    /** On a fan-out's PodGroup: the template whose fan-out it is. */
    static final String TEMPLATE_ANNOTATION = "muster.dev/argo-template";
    private static final ObjectMapper JSON = new ObjectMapper();

    private PodGroupManifests() {}

    /** {@code spec.minResources} in Kubernetes quantities: the resources the minimum gang asks for, none it does not. */
    static ObjectNode minResources(PodGroupSpec podGroup) {
        ObjectNode list = JSON.createObjectNode();
        podGroup.minResources().requestedNames().forEach(name -> list.put(name, podGroup.minResources().format(name)));
        return list;
    }

    static ObjectNode toJson(PodGroupSpec podGroup) {
        ObjectNode root = JSON.createObjectNode();
        root.put("apiVersion", SchedulingApi.VOLCANO_SCHEDULING);
        root.put("kind", "PodGroup");
        ObjectNode metadata = root.putObject("metadata");
        metadata.put("namespace", podGroup.namespace());
        metadata.put("name", podGroup.name());
        metadata.putObject("labels").put(ArgoApi.WORKFLOW_LABEL, podGroup.workflowName());
        ObjectNode annotations = metadata.putObject("annotations");
        annotations.put(GROUP_NODE_ANNOTATION, podGroup.groupNodeId());
        annotations.put(TEMPLATE_ANNOTATION, podGroup.template());
        podGroup.dagAnnotations().forEach(annotations::put);
        ObjectNode owner = metadata.putArray("ownerReferences").addObject();
        owner.put("apiVersion", ArgoApi.API_VERSION);
        owner.put("kind", ArgoApi.WORKFLOW_KIND);
        owner.put("name", podGroup.workflowName());
        owner.put("uid", podGroup.workflowUid());
        owner.put("controller", true);
        owner.put("blockOwnerDeletion", false);
        ObjectNode spec = root.putObject("spec");
        spec.put("minMember", podGroup.minMember());
        if (!podGroup.minResources().requestedNames().isEmpty()) {
            spec.set("minResources", minResources(podGroup));
        }
        podGroup.queue().ifPresent(queue -> spec.put("queue", queue));
        podGroup.priorityClassName().ifPresent(name -> spec.put("priorityClassName", name));
        return root;
    }
}
