package dev.muster.engine.plugins.shortestfirst;

import dev.muster.engine.api.GoDuration;
import dev.muster.engine.framework.JobState;
import java.time.Duration;
import java.util.Optional;

/**
 * Reads the PodGroup annotation {@value #ANNOTATION}: how long the job is expected to run once its gang
 * starts, as a Go duration ({@code 2h30m}) or whole seconds ({@code 9000}), written by whoever knows:
 * the user, a workflow controller, a history service. An estimate is a hint: a malformed, zero or
 * negative one is ignored, with a warning on the job.
 */
final class DurationEstimate {
    static final String ANNOTATION = "muster.dev/duration-estimate";

    private DurationEstimate() {}

    /** The estimate in seconds, empty when there is none or it is unusable (then a warning is recorded). */
    static Optional<Double> of(JobState job) {
        String text = job.job().annotations().get(ANNOTATION);
        if (text == null) {
            return Optional.empty();
        }
        Duration duration;
        try {
            duration = isWholeNumber(text) ? Duration.ofSeconds(Long.parseLong(text)) : GoDuration.parse(text.trim());
        } catch (IllegalArgumentException | ArithmeticException e) {
            job.recordWarning("PodGroup " + job.id() + ": annotation " + ANNOTATION + " '" + text
                    + "' is not a duration (" + e.getMessage() + "); ignored for ordering");
            return Optional.empty();
        }
        if (duration.isNegative() || duration.isZero()) {
            job.recordWarning("PodGroup " + job.id() + ": annotation " + ANNOTATION + " '" + text
                    + "' is not positive; ignored for ordering");
            return Optional.empty();
        }
        return Optional.of(duration.toMillis() / 1000.0);
    }

    private static boolean isWholeNumber(String text) {
        if (text.isEmpty() || text.length() > 18) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
