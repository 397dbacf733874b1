package dev.muster.jobs;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Kubernetes' {@code metav1.Duration} writes them, in Go's syntax: {@code 1h2m3s},
 * {@code 90s}, {@code 1.5h}, {@code 300ms}.
 */
public final class GoDurations {
    private static final Pattern WHOLE = Pattern.compile("(?:[0-9]+(?:\\.[0-9]*)?(?:ns|us|µs|ms|s|m|h))+");
    private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]*)?)(ns|us|µs|ms|s|m|h)");

    private GoDurations() {}

    /**
     * The duration the text denotes; {@code 0} alone is zero.
     *
     * @throws IllegalArgumentException naming the text when it is not a non-negative Go duration
     */
    public static Duration parse(String text) {
        String trimmed = text.trim();
        if (trimmed.equals("0")) {
            return Duration.ZERO;
        }
        if (!WHOLE.matcher(trimmed).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration such as 90s, 5m or 1h30m");
        }
        BigDecimal nanos = BigDecimal.ZERO;
        Matcher part = PART.matcher(trimmed);
        while (part.find()) {
            nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(nanosPerUnit(part.group(2)))));
        }
        return Duration.ofNanos(nanos.longValue());
    }

    /** Go's rendering: {@code 1h2m3s}, {@code 4m0s}, {@code 0s}, {@code 1.5s}. */
    public static String format(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        long hours = duration.toHours();
        int minutes = duration.toMinutesPart();
        BigDecimal seconds = BigDecimal.valueOf(duration.toSecondsPart())
                .add(BigDecimal.valueOf(duration.toNanosPart(), 9)).stripTrailingZeros();
        StringBuilder text = new StringBuilder();
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            text.append(minutes).append('m');
        }
        return text.append(seconds.toPlainString()).append('s').toString();
    }

    private static long nanosPerUnit(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> throw new IllegalArgumentException("unknown unit " + unit);
        };
    }
}
