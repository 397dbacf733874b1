package dev.muster.engine.model;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses and formats Kubernetes resource quantities ("500m", "2Gi", "1e3", "4G"). */
public final class Quantities {
    /**
     * apimachinery's grammar ({@code resource/quantity.go}): {@code <sign>? <number> <suffix>?} where a
     * number is {@code 1}, {@code 1.5}, {@code 1.} or {@code .5}, and a suffix is a binary SI one
     * ({@code Ki} to {@code Ei}), a decimal SI one ({@code n u m k M G T P E}) or an exponent
     * ({@code e}/{@code E} and a signed whole number). No blanks, and nothing else: {@code .inf},
     * {@code NaN} and {@code Infinity} are not quantities.
     */
    private static final Pattern QUANTITY =
            Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");

    /** Kubernetes caps a quantity at 2^63-1 in magnitude (quantity.go's doc comment) rather than refusing it. */
    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    /** The exponents an int32 holds, as apimachinery parses an exponent suffix. */
    private static final long MAX_EXPONENT = Integer.MAX_VALUE;

    private static final String[] BYTE_UNITS = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki", "E", "P", "T", "G", "M", "k"};
    private static final double[] BYTE_SIZES = {1L << 60, 1L << 50, 1L << 40, 1L << 30, 1L << 20, 1L << 10, 1e18, 1e15, 1e12, 1e9, 1e6, 1e3};

    private Quantities() {}

    /**
     * The value of a quantity in base units ("500m" is 0.5, "2Gi" is 2147483648), capped at 2^63-1 in
     * magnitude and rounded up to nano units, as Kubernetes keeps it.
     *
     * @throws IllegalArgumentException naming the text when it is not a quantity
     */
    public static BigDecimal parse(String text) {
        Matcher matcher = QUANTITY.matcher(text);
        if (!matcher.matches()) {
            throw notAQuantity(text);
        }
        String number = matcher.group(1);
        if (number.endsWith(".")) {
            number = number.substring(0, number.length() - 1);
        }
        BigDecimal value = new BigDecimal(number.startsWith("+.") || number.startsWith("-.") || number.startsWith(".")
                ? number.replace(".", "0.") : number);
        String suffix = matcher.group(2);
        if (suffix == null) {
            return bounded(value);
        }
        if (suffix.length() > 1 && suffix.charAt(1) != 'i') {
            long exponent;
            try {
                exponent = Long.parseLong(suffix.substring(1));
            } catch (NumberFormatException e) {
                throw notAQuantity(text);
            }
            if (Math.abs(exponent) > MAX_EXPONENT) {
                throw notAQuantity(text);
            }
            return bounded(value, exponent);
        }
        BigDecimal multiplier = switch (suffix) {
            case "n" -> new BigDecimal("1e-9");
            case "u" -> new BigDecimal("1e-6");
            case "m" -> new BigDecimal("1e-3");
            case "k" -> new BigDecimal("1e3");
            case "M" -> new BigDecimal("1e6");
            case "G" -> new BigDecimal("1e9");
            case "T" -> new BigDecimal("1e12");
            case "P" -> new BigDecimal("1e15");
            case "E" -> new BigDecimal("1e18");
            case "Ki" -> BigDecimal.valueOf(1L << 10);
            case "Mi" -> BigDecimal.valueOf(1L << 20);
            case "Gi" -> BigDecimal.valueOf(1L << 30);
            case "Ti" -> BigDecimal.valueOf(1L << 40);
            case "Pi" -> BigDecimal.valueOf(1L << 50);
            case "Ei" -> BigDecimal.valueOf(1L << 60);
            default -> throw notAQuantity(text);
        };
        return bounded(value.multiply(multiplier));
    }

    private static IllegalArgumentException notAQuantity(String text) {
        return new IllegalArgumentException("'" + text + "' is not a Kubernetes quantity");
    }

    /**
     * {@code value * 10^exponent}, judged by its order of magnitude before it is built, so that
     * {@code 1e2000000000} costs no more than {@code 1e3}.
     */
    private static BigDecimal bounded(BigDecimal value, long exponent) {
        if (value.signum() == 0) {
            return BigDecimal.ZERO;
        }
        long magnitude = (long) value.precision() - value.scale() + exponent;
        if (magnitude > 20) {
            return value.signum() > 0 ? MAX : MAX.negate();
        }
        if (magnitude < -10) {
            // below a nano unit: Kubernetes rounds it up to the smallest unit it keeps
            return value.signum() > 0 ? new BigDecimal("1e-9") : BigDecimal.ZERO;
        }
        return bounded(value.scaleByPowerOfTen((int) exponent));
    }

    private static BigDecimal bounded(BigDecimal value) {
        if (value.abs().compareTo(MAX) > 0) {
            return value.signum() > 0 ? MAX : MAX.negate();
        }
        return value.scale() > 9 ? value.setScale(9, RoundingMode.CEILING) : value;
    }

    // Long.toString is what %d prints in Locale.ROOT; Formatter cost a scheduling cycle more than the
    // decisions did once every pending job's reason names its quantities.
    static String formatMilli(double milli) {
        if (Math.abs(milli % 1000) < 1e-6) {
            return Long.toString((long) (milli / 1000));
        }
        return Math.round(milli) + "m";
    }

    /** The shortest exact form among binary and decimal suffixes ({@code 2Gi}, {@code 2G}, {@code 1536Mi}). */
    static String formatBytes(double bytes) {
        String best = Long.toString(Math.round(bytes));
        for (int i = 0; i < BYTE_UNITS.length; i++) {
            if (bytes >= BYTE_SIZES[i] && Math.abs(bytes % BYTE_SIZES[i]) < 1e-6) {
                String candidate = (long) (bytes / BYTE_SIZES[i]) + BYTE_UNITS[i];
                if (candidate.length() < best.length()) {
                    best = candidate;
                }
            }
        }
        return best;
    }
}
