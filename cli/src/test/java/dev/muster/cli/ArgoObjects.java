package dev.muster.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Instant;
import java.util.List;

/** Argo Workflows and their pods as the muster-up tests of the real Argo controller read them, in namespace {@code default}. */
final class ArgoObjects {
    static final ResourceDefinitionContext WORKFLOWS = new ResourceDefinitionContext.Builder()
            .withGroup("argoproj.io").withVersion("v1alpha1").withPlural("workflows").withKind("Workflow").withNamespaced(true).build();
    /** On a workflow's pods: the Workflow's name. */
    static final String WORKFLOW_LABEL = "workflows.argoproj.io/workflow";

    private ArgoObjects() {}

    /** The workflow's {@code status.phase}; {@code absent} when there is no such workflow, {@code null} before the controller wrote one. */
    static String phase(KubernetesClient client, String name) {
        GenericKubernetesResource workflow = client.genericKubernetesResources(WORKFLOWS).inNamespace("default").withName(name).get();
        return workflow == null ? "absent" : String.valueOf(workflow.<Object>get("status", "phase"));
    }

    static List<Pod> pods(KubernetesClient client, String workflow) {
        return client.pods().inNamespace("default").withLabel(WORKFLOW_LABEL, workflow).list().getItems();
    }

    static String workflow(Pod pod) {
        return pod.getMetadata().getLabels().get(WORKFLOW_LABEL);
    }

    static Instant started(Pod pod) {
        return Instant.parse(pod.getStatus().getStartTime());
    }

    /** When the pod's last container ended. */
    static Instant ended(Pod pod) {
        return pod.getStatus().getContainerStatuses().stream().filter(status -> status.getState().getTerminated() != null)
                .map(status -> Instant.parse(status.getState().getTerminated().getFinishedAt())).max(Instant::compareTo).orElseThrow();
    }
}
