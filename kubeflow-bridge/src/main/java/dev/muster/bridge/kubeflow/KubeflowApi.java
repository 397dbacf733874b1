package dev.muster.bridge.kubeflow;

/**
 * Kubeflow's names, as training operator v1.9 defines them ({@code pkg/apis/kubeflow.org/v1}): the API
 * group and what the operator puts on the pods it makes ({@code common_types.go}).
 */
public final class KubeflowApi {
    public static final String GROUP = "kubeflow.org";
    public static final String VERSION = "v1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** The class-path resource of the TFJob and PyTorchJob CRDs (training operator v1.9.4's). */
    public static final String CRDS = "/dev/muster/bridge/kubeflow/crds.yaml";

    /** On a job's pods and services: the job's name ({@code JobNameLabel}). */
    public static final String JOB_NAME_LABEL = "training.kubeflow.org/job-name";
    /** On a job's pods: the replica type in lower case ({@code ReplicaTypeLabel}). */
    public static final String REPLICA_TYPE_LABEL = "training.kubeflow.org/replica-type";
    /** On a job's pods and services: the replica's index ({@code ReplicaIndexLabel}). */
    public static final String REPLICA_INDEX_LABEL = "training.kubeflow.org/replica-index";
    /** On a job's pods and services: the operator's controller of the kind ({@code OperatorNameLabel}). */
    public static final String OPERATOR_NAME_LABEL = "training.kubeflow.org/operator-name";
    /** On the pod of a job's master role, value {@code master} ({@code JobRoleLabel}). */
    public static final String JOB_ROLE_LABEL = "training.kubeflow.org/job-role";

    /**
     * The value of a job's {@code spec.runPolicy.managedBy} that names the training operator itself
     * ({@code KubeflowJobsController}, {@code common_types.go:39-40}): the operator reconciles a job with this
     * value or with none.
     */
    public static final String TRAINING_OPERATOR_MANAGER = "kubeflow.org/training-operator";
    /** The other value the operator's webhook accepts: Kueue's MultiKueue runs the job in another cluster ({@code common_types.go:42-43}). */
    public static final String MULTIKUEUE_MANAGER = "kueue.x-k8s.io/multikueue";

    /**
     * On a job the bridge suspended for bad input: the field at fault. The bridge resumes the job once the
     * input is good and only if this annotation says that the bridge suspended it.
     */
    public static final String SUSPENDED_BY_MUSTER = "muster.dev/suspended-for";
    /** On a Volcano PodGroup the bridge wrote for a scheduler-plugins one: the apiVersion it mirrors. */
    public static final String MIRROR_OF = "muster.dev/mirror-of";

    private KubeflowApi() {}
}
