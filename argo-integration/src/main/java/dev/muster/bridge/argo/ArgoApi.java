package dev.muster.bridge.argo;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * Argo's names, as Argo v4.0.5 defines them: the Workflow kind ({@code manifests/base/crds}) and what
 * its controller puts on the pods it makes ({@code workflow/common/common.go}).
 */
public final class ArgoApi {
    public static final String GROUP = "argoproj.io";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String WORKFLOW_KIND = "Workflow";
    public static final ResourceDefinitionContext WORKFLOWS = new ResourceDefinitionContext.Builder()
            .withGroup(GROUP).withVersion(VERSION).withKind(WORKFLOW_KIND).withPlural("workflows").withNamespaced(true)
            .build();

    /** On a workflow's pods: the Workflow's name ({@code LabelKeyWorkflow}). */
    public static final String WORKFLOW_LABEL = "workflows.argoproj.io/workflow";
    /** On a workflow's pods: the id of the pod's node in {@code status.nodes} ({@code AnnotationKeyNodeID}). */
    public static final String NODE_ID_ANNOTATION = "workflows.argoproj.io/node-id";

    private ArgoApi() {}
}
