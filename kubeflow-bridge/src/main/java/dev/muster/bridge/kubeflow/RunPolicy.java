package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * What native mode reads of a job's {@code spec.runPolicy} (and a TFJob's {@code spec.successPolicy}), with
 * the operator's defaults: {@code cleanPodPolicy} None ({@code tensorflow_defaults.go:52-54}), the rest absent.
 *
 * @param allWorkers a TFJob's {@code successPolicy: AllWorkers}: Worker 0 alone does not end the job
 */
public record RunPolicy(
        CleanPodPolicy cleanPodPolicy,
        Optional<Integer> ttlSecondsAfterFinished,
        Optional<Long> activeDeadlineSeconds,
        Optional<Integer> backoffLimit,
        boolean suspend,
        boolean allWorkers) {
    public RunPolicy {
        requireNonNull(cleanPodPolicy, "cleanPodPolicy is null");
        requireNonNull(ttlSecondsAfterFinished, "ttlSecondsAfterFinished is null");
        requireNonNull(activeDeadlineSeconds, "activeDeadlineSeconds is null");
        requireNonNull(backoffLimit, "backoffLimit is null");
    }

    /** Which pods a finished job's cleanup deletes ({@code DeletePodsAndServices}, {@code job.go:43-69}). */
    public enum CleanPodPolicy {
        NONE,
        /** Running and Pending pods. */
        RUNNING,
        ALL
    }

    public static RunPolicy read(JsonNode job) {
        JsonNode runPolicy = job.path("spec").path("runPolicy");
        CleanPodPolicy clean = switch (runPolicy.path("cleanPodPolicy").asText("None")) {
            case "Running" -> CleanPodPolicy.RUNNING;
            case "All" -> CleanPodPolicy.ALL;
            default -> CleanPodPolicy.NONE;
        };
        JsonNode ttl = runPolicy.path("ttlSecondsAfterFinished");
        JsonNode deadline = runPolicy.path("activeDeadlineSeconds");
        JsonNode backoff = runPolicy.path("backoffLimit");
        return new RunPolicy(clean,
                ttl.isIntegralNumber() ? Optional.of(ttl.intValue()) : Optional.empty(),
                deadline.isIntegralNumber() ? Optional.of(deadline.longValue()) : Optional.empty(),
                backoff.isIntegralNumber() ? Optional.of(backoff.intValue()) : Optional.empty(),
                runPolicy.path("suspend").asBoolean(false),
                job.path("spec").path("successPolicy").asText("").equals("AllWorkers"));
    }
}
