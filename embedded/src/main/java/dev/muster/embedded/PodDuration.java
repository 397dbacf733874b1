package dev.muster.embedded;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the run time a pod declares, as Go writes durations: {@code 30s}, {@code 1m30s}, {@code 500ms}, {@code 2h}. */
final class PodDuration {
    private static final Pattern WHOLE = Pattern.compile("(\\d+(ms|s|m|h))+");
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");

    private PodDuration() {}

    /**
     * The duration the text denotes.
     *
     * @throws IllegalArgumentException naming the text when it is not such a duration
     */
    static Duration parse(String text) {
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        if (!WHOLE.matcher(trimmed).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration such as 30s, 1m30s or 500ms");
        }
        Duration total = Duration.ZERO;
        Matcher part = PART.matcher(trimmed);
        while (part.find()) {
            long amount = Long.parseLong(part.group(1));
            total = total.plus(switch (part.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            });
        }
        return total;
    }
}
