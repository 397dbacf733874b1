package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * A job's {@code spec.runPolicy.managedBy}, read as training operator v1.9 reads it. The operator reconciles a job
 * whose field is absent or {@link KubeflowApi#TRAINING_OPERATOR_MANAGER}; any other value, the empty string included,
 * names an external controller and the operator skips the job ({@code ManagedByExternalController},
 * {@code job.go:459-464}; {@code tfjob_controller.go:130-133}). Its webhook admits only the two values it knows
 * ({@code webhooks.go:11-25}); the CRD does not check the field, so without the webhook any string reaches the
 * controllers.
 *
 * @param value the field's value, absent when the job leaves it out
 */
public record ManagedBy(Optional<String> value) {
    /** A job without the field. */
    public static final ManagedBy UNSET = new ManagedBy(Optional.empty());

    public ManagedBy {
        requireNonNull(value, "value is null");
    }

    public static ManagedBy read(JsonNode job) {
        JsonNode node = job.path("spec").path("runPolicy").path("managedBy");
        return node.isTextual() ? new ManagedBy(Optional.of(node.asText())) : UNSET;
    }

    /** Whether the training operator reconciles the job, and so native mode, which stands in for it. */
    public boolean byTheOperator() {
        return value.isEmpty() || value.get().equals(KubeflowApi.TRAINING_OPERATOR_MANAGER);
    }

    /** Whether the value is one the operator's webhook admits (absent, the operator's own, or MultiKueue's). */
    public boolean known() {
        return byTheOperator() || value.get().equals(KubeflowApi.MULTIKUEUE_MANAGER);
    }
}
