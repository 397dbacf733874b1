package dev.muster.bridge.argo;

import java.util.Map;

/**
 * What opts a workflow into admission (docs/bridges.md, issue 14 item 3): the workflow is submitted
 * suspended ({@code spec.suspend: true}) and the bridge resumes it once its queue can admit its widest
 * stage.
 */
public final class AdmissionAnnotations {
    /** On a Workflow: {@code "true"} opts it in, {@code "false"} out (even on a queue that opts in). */
    public static final String ADMIT = "muster.dev/admit";
    /** On a Volcano Queue: {@code "true"} opts in every Workflow of the queue submitted suspended that does not say {@link #ADMIT} {@code "false"}. */
    public static final String ADMIT_WORKFLOWS = "muster.dev/admit-workflows";
    /**
     * On a Workflow, set by the bridge as it resumes it: when it was admitted. The queue keeps the
     * workflow's widest stage for it until it ends, and the bridge never resumes it again (a later
     * {@code argo suspend} is the user's).
     */
    public static final String ADMITTED = "muster.dev/admitted";
    /** On a Workflow: its queue; without it, the one queue its templates' {@link GangAnnotations#QUEUE} name, else {@code default}. */
    public static final String QUEUE = GangAnnotations.QUEUE;

    private AdmissionAnnotations() {}

    /** Whether a Queue with these annotations opts its workflows in ({@link #ADMIT_WORKFLOWS} {@code "true"}). */
    public static boolean queueOptsIn(Map<String, String> annotations) {
        return annotations != null && "true".equals(annotations.get(ADMIT_WORKFLOWS));
    }
}
