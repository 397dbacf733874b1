package dev.muster.engine.api;

/**
 * The names Muster reads and writes on Kubernetes objects, each defined once: Volcano's API groups,
 * annotations and labels (read from Volcano's own definitions, so that Muster can take Volcano's
 * place without a change to jobs), the scheduler-plugins PodGroup that Kubeflow's operator can
 * create, Kubernetes' own Workload API PodGroup, and Muster's own keys under {@code muster.dev/}.
 */
public final class SchedulingApi {
    /** Volcano's PodGroup and Queue. */
    public static final String VOLCANO_SCHEDULING = "scheduling.volcano.sh/v1beta1";
    /** Volcano's batch Job. */
    public static final String VOLCANO_BATCH = "batch.volcano.sh/v1alpha1";
    /** Volcano's JobFlow and JobTemplate. */
    public static final String VOLCANO_FLOW = "flow.volcano.sh/v1alpha1";
    /** Volcano's Command (what {@code vcctl job suspend} and friends create). */
    public static final String VOLCANO_BUS = "bus.volcano.sh/v1alpha1";
    /** Volcano's HyperNode (network topology). */
    public static final String VOLCANO_TOPOLOGY = "topology.volcano.sh/v1alpha1";
    /** The scheduler-plugins (coscheduling) PodGroup. */
    public static final String COSCHEDULING = "scheduling.x-k8s.io/v1alpha1";
    /**
     * Kubernetes' own PodGroup, of the Workload API that kube-scheduler's gang scheduling reads
     * (Kubernetes 1.36, feature gate {@code GenericWorkload}).
     */
    public static final String WORKLOAD_SCHEDULING = "scheduling.k8s.io/v1alpha2";

    /** The scheduler the API server names in a pod that names none ({@code SetDefaults_PodSpec}). */
    public static final String DEFAULT_SCHEDULER_NAME = "default-scheduler";

    /** On a pod: the name of its PodGroup, in the pod's namespace (Volcano's {@code KubeGroupNameAnnotationKey}). */
    public static final String GROUP_NAME_ANNOTATION = "scheduling.k8s.io/group-name";
    /** On a pod: the name of its scheduler-plugins (coscheduling) PodGroup, in the pod's namespace. */
    public static final String COSCHEDULING_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";
    /**
     * In a pod: the name of its {@link #WORKLOAD_SCHEDULING} PodGroup, in the pod's namespace (the pod's
     * {@code spec.schedulingGroup}, Kubernetes 1.36).
     */
    public static final String SCHEDULING_GROUP_FIELD = "spec.schedulingGroup.podGroupName";
    /**
     * On a pod: {@code "true"} says the pod belongs to a gang that a bridge (Argo's, for a fan-out of a
     * template so annotated) will name in {@link #GROUP_NAME_ANNOTATION}. Until then the pod is held:
     * it is not scheduled and gets no automatic PodGroup, so it can never start alone.
     */
    public static final String GANG_ANNOTATION = "muster.dev/gang";
    /** On a pod or PodGroup: the queue (Volcano's {@code QueueNameKey} annotation). */
    public static final String QUEUE_NAME_ANNOTATION = "scheduling.volcano.sh/queue-name";
    /** On a pod: the task of its job it belongs to (Volcano's {@code TaskSpecKey}). */
    public static final String TASK_SPEC = "volcano.sh/task-spec";
    /** On a pod: its priority within its job (Volcano's {@code TaskPriorityAnnotation}). */
    public static final String TASK_PRIORITY = "volcano.sh/task-priority";
    /** On a pod or PodGroup: whether it may be preempted (Volcano's {@code PodPreemptable}). */
    public static final String PREEMPTABLE = "volcano.sh/preemptable";

    /** Labels and annotations Volcano's job controller writes on a Job's pods and PodGroup. */
    public static final String JOB_NAME = "volcano.sh/job-name";
    public static final String JOB_NAMESPACE = "volcano.sh/job-namespace";
    /** The job's queue, as a label on its pods (the annotation is {@link #QUEUE_NAME_ANNOTATION}). */
    public static final String QUEUE_NAME_LABEL = "volcano.sh/queue-name";
    public static final String TASK_INDEX = "volcano.sh/task-index";
    public static final String JOB_VERSION = "volcano.sh/job-version";
    public static final String TEMPLATE_UID = "volcano.sh/template-uid";
    public static final String JOB_RETRY_COUNT = "volcano.sh/job-retry-count";
    public static final String NUMA_POLICY = "volcano.sh/numa-topology-policy";
    public static final String COOLDOWN_TIME = "volcano.sh/cooldown-time";
    public static final String REVOCABLE_ZONE = "volcano.sh/revocable-zone";
    public static final String JDB_MIN_AVAILABLE = "volcano.sh/jdb-min-available";
    public static final String JDB_MAX_UNAVAILABLE = "volcano.sh/jdb-max-unavailable";
    /** Set on a pod the job controller killed, so its later events are not taken for news. */
    public static final String OUT_OF_SYNC = "volcano.sh/out-of-sync";
    /**
     * Muster's option for a Volcano task's {@code dependsOn}: {@code running} (Volcano's meaning, the
     * default) or {@code completed} (the parent task's minimum of pods succeeded).
     */
    public static final String DEPENDS_ON = "muster.dev/depends-on";

    /** On a pod, for Muster's simulated kubelet: how long it runs once bound, as a Go duration. */
    public static final String DURATION_ANNOTATION = "muster.dev/duration";
    /** On a pod, for Muster's simulated kubelet: the exit code it ends with (0 by default). */
    public static final String EXIT_CODE_ANNOTATION = "muster.dev/exit-code";
    /** On a simulated node: the pool it was made for. */
    public static final String POOL_LABEL = "muster.dev/pool";

    private SchedulingApi() {}
}
