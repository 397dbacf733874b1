package dev.muster.bridge.kubeflow;

import com.google.common.collect.ImmutableSortedSet;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Optional;

/**
 * The training job kinds the bridge reads, each with the field of its replica specs and the replica types
 * training operator v1.9 knows ({@code tensorflow_types.go}, {@code pytorch_types.go}).
 */
public enum TrainingKind {
    TFJOB("TFJob", "tfjobs", "tfReplicaSpecs", ImmutableSortedSet.of("Chief", "Evaluator", "Master", "PS", "Worker")),
    PYTORCHJOB("PyTorchJob", "pytorchjobs", "pytorchReplicaSpecs", ImmutableSortedSet.of("Master", "Worker"));

    private final String kind;
    private final String plural;
    private final String replicaSpecsField;
    private final ImmutableSortedSet<String> replicaTypes;
    private final ResourceDefinitionContext context;

    TrainingKind(String kind, String plural, String replicaSpecsField, ImmutableSortedSet<String> replicaTypes) {
        this.kind = kind;
        this.plural = plural;
        this.replicaSpecsField = replicaSpecsField;
        this.replicaTypes = replicaTypes;
        this.context = new ResourceDefinitionContext.Builder().withGroup(KubeflowApi.GROUP).withVersion(KubeflowApi.VERSION)
                .withKind(kind).withPlural(plural).withNamespaced(true).build();
    }

    public String kind() {
        return kind;
    }

    public String plural() {
        return plural;
    }

    /** The field under {@code spec} that maps replica types to replica specs. */
    public String replicaSpecsField() {
        return replicaSpecsField;
    }

    public ImmutableSortedSet<String> replicaTypes() {
        return replicaTypes;
    }

    public ResourceDefinitionContext context() {
        return context;
    }

    /**
     * The operator's controller of the kind, the value of {@code training.kubeflow.org/operator-name} on
     * what it makes ({@code controllerName} in {@code tfjob_controller.go}, {@code pytorchjob_controller.go}).
     */
    public String controllerName() {
        return switch (this) {
            case TFJOB -> "tfjob-controller";
            case PYTORCHJOB -> "pytorchjob-controller";
        };
    }

    /** The container the operator gives its port and environment ({@code TFJobDefaultContainerName}, ...). */
    public String defaultContainerName() {
        return switch (this) {
            case TFJOB -> "tensorflow";
            case PYTORCHJOB -> "pytorch";
        };
    }

    /** The name of the port replicas talk on ({@code TFJobDefaultPortName}, {@code PyTorchJobDefaultPortName}). */
    public String defaultPortName() {
        return switch (this) {
            case TFJOB -> "tfjob-port";
            case PYTORCHJOB -> "pytorchjob-port";
        };
    }

    /** That port's number when the template gives none ({@code TFJobDefaultPort}, {@code PyTorchJobDefaultPort}). */
    public int defaultPort() {
        return switch (this) {
            case TFJOB -> 2222;
            case PYTORCHJOB -> 23456;
        };
    }

    /** A replica spec's restart policy when it gives none ({@code TFJobDefaultRestartPolicy}, ...). */
    public NativeJob.ReplicaRestartPolicy defaultRestartPolicy() {
        return switch (this) {
            case TFJOB -> NativeJob.ReplicaRestartPolicy.NEVER;
            case PYTORCHJOB -> NativeJob.ReplicaRestartPolicy.ON_FAILURE;
        };
    }

    public static Optional<TrainingKind> ofKind(String kind) {
        for (TrainingKind value : values()) {
            if (value.kind.equals(kind)) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
