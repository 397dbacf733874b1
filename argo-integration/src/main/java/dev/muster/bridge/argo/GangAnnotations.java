package dev.muster.bridge.argo;

import dev.muster.engine.api.SchedulingApi;

/**
 * What a workflow author writes in a template's {@code metadata.annotations} (which Argo copies onto
 * the template's pods) to have each fan-out of that template scheduled as one gang.
 */
public final class GangAnnotations {
    /**
     * {@code "true"}: each fan-out of the template is one gang. Argo copies it onto each pod, where it
     * makes the scheduler hold the pod ({@link SchedulingApi#GANG_ANNOTATION}) until the bridge names
     * the pod's group, or sets it to {@code "false"} when the pod is in no gang after all.
     */
    public static final String GANG = SchedulingApi.GANG_ANNOTATION;
    /** The Volcano Queue of the fan-outs' PodGroups; the PodGroup's default ({@code default}) without it. */
    public static final String QUEUE = "muster.dev/queue";
    /** How many pods of a fan-out must be placeable together; the whole fan-out without it. */
    public static final String MIN_AVAILABLE = "muster.dev/min-available";
    /** The PodGroup's {@code spec.priorityClassName}. */
    public static final String PRIORITY_CLASS = "muster.dev/priority-class";
    /**
     * A pod scheduling gate a gang template may add through its {@code podSpecPatch}, for a pod that
     * other schedulers must also leave alone; the bridge removes it with the same patch that names the
     * group. Muster needs only {@link #GANG}.
     */
    public static final String SCHEDULING_GATE = "muster.dev/gang";

    private GangAnnotations() {}
}
