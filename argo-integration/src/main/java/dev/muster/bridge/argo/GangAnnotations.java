package dev.muster.bridge.argo;

/**
 * What a workflow author writes in a template's {@code metadata.annotations} (which Argo copies onto
 * the template's pods) to have each fan-out of that template scheduled as one gang.
 */
public final class GangAnnotations {
    /** {@code "true"}: each fan-out of the template is one gang. */
    public static final String GANG = "muster.dev/gang";
    /** The Volcano Queue of the fan-outs' PodGroups; the PodGroup's default ({@code default}) without it. */
    public static final String QUEUE = "muster.dev/queue";
    /** How many pods of a fan-out must be placeable together; the whole fan-out without it. */
    public static final String MIN_AVAILABLE = "muster.dev/min-available";
    /** The PodGroup's {@code spec.priorityClassName}. */
    public static final String PRIORITY_CLASS = "muster.dev/priority-class";
    /**
     * The group a gang template names in its pods' {@code scheduling.k8s.io/group-name} annotation, so
     * that each pod is created already holding to a group: the scheduler holds a pod whose PodGroup does
     * not exist, and Muster's automatic PodGroups (Volcano's podgroup controller's) are only for pods
     * that name none. Once the Workflow's status lists the pod's node, the bridge names the fan-out's
     * PodGroup instead, or removes the annotation if the pod is in no gang. No PodGroup of this name may
     * exist.
     */
    public static final String PENDING_GROUP = "muster-argo-pending";
    /**
     * A pod scheduling gate a gang template may add through its {@code podSpecPatch} instead; the
     * bridge removes it with the same patch that names the group. It does not keep Muster's automatic
     * PodGroups away, which may name a group for the pod meanwhile: prefer {@link #PENDING_GROUP}.
     */
    public static final String SCHEDULING_GATE = "muster.dev/gang";

    private GangAnnotations() {}
}
