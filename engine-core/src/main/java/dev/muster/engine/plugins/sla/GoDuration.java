package dev.muster.engine.plugins.sla;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations written as Go's {@code time.ParseDuration} reads them: a sequence of decimal numbers
 * with a unit each, such as {@code 1h2m3s}, {@code 1.5h} or {@code 300ms}; units are {@code ns},
 * {@code us} ({@code µs}), {@code ms}, {@code s}, {@code m} and {@code h}.
 */
final class GoDuration {
    private static final Pattern PART = Pattern.compile("([0-9]*\\.?[0-9]*)(ns|us|µs|μs|ms|s|m|h)");
    private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
            "ns", 1L,
            "us", 1_000L,
            "µs", 1_000L,
            "μs", 1_000L,
            "ms", 1_000_000L,
            "s", 1_000_000_000L,
            "m", 60_000_000_000L,
            "h", 3_600_000_000_000L);

    private GoDuration() {}

    /**
     * The duration the text denotes.
     *
     * @throws IllegalArgumentException naming the text when it is not a Go duration
     */
    static Duration parse(String text) {
        String rest = text.trim();
        boolean negative = false;
        if (rest.startsWith("-") || rest.startsWith("+")) {
            negative = rest.startsWith("-");
            rest = rest.substring(1);
        }
        if (rest.equals("0")) {
            return Duration.ZERO;
        }
        if (rest.isEmpty()) {
            throw invalid(text);
        }
        Matcher matcher = PART.matcher(rest);
        BigDecimal nanos = BigDecimal.ZERO;
        int position = 0;
        while (position < rest.length()) {
            if (!matcher.find(position) || matcher.start() != position) {
                throw invalid(text);
            }
            String number = matcher.group(1);
            if (number.isEmpty() || number.equals(".")) {
                throw invalid(text);
            }
            nanos = nanos.add(new BigDecimal(number).multiply(BigDecimal.valueOf(NANOS_PER_UNIT.get(matcher.group(2)))));
            position = matcher.end();
        }
        Duration duration = Duration.ofNanos(nanos.longValue());
        return negative ? duration.negated() : duration;
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("'" + text + "' is not a duration; use e.g. 30m, 1h2m or 90s");
    }
}
