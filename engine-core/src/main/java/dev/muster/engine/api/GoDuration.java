package dev.muster.engine.api;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;

/**
 * Durations in Go's syntax, the one reader and writer of them in Muster: what Kubernetes'
 * {@code metav1.Duration} fields, Volcano's arguments and flags, and Muster's own annotations and
 * command-line periods use. {@link #parse} reads what Go's {@code time.ParseDuration} reads; {@link
 * #format} writes what Go's {@code Duration.String} writes.
 *
 * <p>The grammar, as Go's documentation gives it: an optional sign, then one or more decimal numbers,
 * each with an optional fraction and a unit ({@code ns}, {@code us} or {@code µs}, {@code ms},
 * {@code s}, {@code m}, {@code h}), such as {@code 300ms}, {@code -1.5h} or {@code 2h45m}; {@code 0}
 * alone needs no unit. Written by hand rather than with a regular expression so that each refusal can
 * say what is wrong; no library on our class path reads Go durations.
 */
public final class GoDuration {
    /** 2^63 nanoseconds: Go's bound on a duration's magnitude. */
    private static final BigInteger LIMIT = BigInteger.ONE.shiftLeft(63);

    private GoDuration() {}

    /**
     * The duration the text denotes, negative if it says so.
     *
     * @throws IllegalArgumentException naming the text and what is wrong with it
     */
    public static Duration parse(String text) {
        String rest = text;
        boolean negative = false;
        if (!rest.isEmpty() && (rest.charAt(0) == '-' || rest.charAt(0) == '+')) {
            negative = rest.charAt(0) == '-';
            rest = rest.substring(1);
        }
        if (rest.equals("0")) {
            return Duration.ZERO;
        }
        if (rest.isEmpty()) {
            throw invalid(text, "it is empty");
        }
        BigInteger total = BigInteger.ZERO;
        int position = 0;
        while (position < rest.length()) {
            int componentStart = position;
            // the whole part, then the fraction, as Go reads them: the fraction's digits beyond what a
            // 63-bit integer holds are read and dropped, and the fraction is scaled in floating point
            BigInteger whole = BigInteger.ZERO;
            while (position < rest.length() && isDigit(rest.charAt(position))) {
                whole = whole.multiply(BigInteger.TEN).add(BigInteger.valueOf(rest.charAt(position) - '0'));
                if (whole.compareTo(LIMIT) > 0) {
                    throw invalid(text, "it is out of range");
                }
                position++;
            }
            boolean digitsBefore = position > componentStart;
            long fraction = 0;
            double scale = 1;
            boolean digitsAfter = false;
            if (position < rest.length() && rest.charAt(position) == '.') {
                position++;
                boolean full = false;
                while (position < rest.length() && isDigit(rest.charAt(position))) {
                    digitsAfter = true;
                    int digit = rest.charAt(position) - '0';
                    if (!full && fraction <= (Long.MAX_VALUE - digit) / 10) {
                        fraction = fraction * 10 + digit;
                        scale *= 10;
                    } else {
                        full = true;
                    }
                    position++;
                }
            }
            if (!digitsBefore && !digitsAfter) {
                throw invalid(text, "a number is expected at position " + (componentStart + text.length() - rest.length()));
            }
            int unitStart = position;
            while (position < rest.length() && !isDigit(rest.charAt(position)) && rest.charAt(position) != '.') {
                position++;
            }
            long unit = nanosPerUnit(text, rest.substring(unitStart, position));
            BigInteger component = whole.multiply(BigInteger.valueOf(unit));
            if (fraction > 0) {
                component = component.add(BigInteger.valueOf((long) (fraction * (unit / scale))));
            }
            total = total.add(component);
            if (total.compareTo(LIMIT) > 0) {
                throw invalid(text, "it is out of range");
            }
        }
        if (!negative && total.compareTo(LIMIT) == 0) {
            throw invalid(text, "it is out of range");
        }
        // -2^63 ns is in range, as in Go
        return Duration.ofNanos(negative ? total.negate().longValueExact() : total.longValueExact());
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * The duration as Go writes it: {@code 1h2m3s}, {@code 4m0s}, {@code 1.5s}, {@code 300ms},
     * {@code 1.5µs}, {@code 0s}, {@code -2s}.
     */
    public static String format(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        if (duration.isNegative()) {
            return "-" + format(duration.negated());
        }
        if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
            long nanos = duration.toNanos();
            if (nanos < 1_000) {
                return nanos + "ns";
            }
            return nanos < 1_000_000 ? decimal(nanos, 3) + "µs" : decimal(nanos, 6) + "ms";
        }
        long hours = duration.toHours();
        int minutes = duration.toMinutesPart();
        StringBuilder text = new StringBuilder();
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            text.append(minutes).append('m');
        }
        return text.append(decimal(duration.toSecondsPart() * 1_000_000_000L + duration.toNanosPart(), 9)).append('s').toString();
    }

    private static String decimal(long value, int scale) {
        return BigDecimal.valueOf(value, scale).stripTrailingZeros().toPlainString();
    }

    private static long nanosPerUnit(String text, String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            // U+00B5 (micro sign) and U+03BC (Greek small mu), as Go accepts both
            case "us", "\u00b5s", "\u03bcs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            case "" -> throw invalid(text, "a unit is missing (ns, us, ms, s, m or h)");
            default -> throw invalid(text, "unknown unit '" + unit + "' (ns, us, ms, s, m or h)");
        };
    }

    private static IllegalArgumentException invalid(String text, String why) {
        return new IllegalArgumentException("'" + text + "' is not a duration such as 90s, 1m30s, 1.5h or 500ms: " + why);
    }
}
