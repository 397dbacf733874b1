package dev.muster.engine.model;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses and formats Kubernetes resource quantities ("500m", "2Gi", "1e3", "4G"). */
public final class Quantities {
    private static final Pattern QUANTITY =
            Pattern.compile("^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$");

    private static final String[] BYTE_UNITS = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki", "E", "P", "T", "G", "M", "k"};
    private static final double[] BYTE_SIZES = {1L << 60, 1L << 50, 1L << 40, 1L << 30, 1L << 20, 1L << 10, 1e18, 1e15, 1e12, 1e9, 1e6, 1e3};

    private Quantities() {}

    /**
     * The value of a quantity in base units ("500m" is 0.5, "2Gi" is 2147483648).
     *
     * @throws IllegalArgumentException naming the text when it is not a quantity
     */
    public static BigDecimal parse(String text) {
        String trimmed = text.trim();
        Matcher matcher = QUANTITY.matcher(trimmed);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a Kubernetes quantity");
        }
        BigDecimal number;
        try {
            number = new BigDecimal(matcher.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a Kubernetes quantity", e);
        }
        String suffix = matcher.group(2);
        if (suffix == null) {
            return number;
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
            default -> throw new IllegalArgumentException("'" + text + "' has an unknown suffix");
        };
        return number.multiply(multiplier);
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
