package dev.muster.bridge.spark;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spark confs as a plain map, for code that runs without Spark on its class path (the SparkApplication
 * bridge, inside Muster). Sizes are parsed as Spark 4.2.0's {@code JavaUtils.byteStringAs} parses them:
 * a whole number with an optional unit {@code b}, {@code k}/{@code kb}, {@code m}/{@code mb},
 * {@code g}/{@code gb}, {@code t}/{@code tb} or {@code p}/{@code pb} (binary multiples, case ignored),
 * a bare number being MiB, and converted down to whole MiB. Our own parser, because Spark's lives in
 * a Spark jar that Muster's runtime does not carry; {@code MapConfSourceTest} holds it to Spark's.
 */
final class MapConfSource implements ConfSource {
    private static final Pattern SIZE = Pattern.compile("([0-9]+)([a-z]+)?");
    private static final Pattern FRACTION = Pattern.compile("([0-9]+\\.[0-9]+)([a-z]+)?");

    private final Map<String, String> confs;

    MapConfSource(Map<String, String> confs) {
        this.confs = Collections.unmodifiableMap(new TreeMap<>(confs));
    }

    @Override
    public Optional<String> get(String key) {
        return Optional.ofNullable(confs.get(key));
    }

    @Override
    public Map<String, String> withPrefix(String prefix) {
        Map<String, String> settings = new TreeMap<>();
        confs.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                settings.put(key.substring(prefix.length()), value);
            }
        });
        return Collections.unmodifiableMap(settings);
    }

    @Override
    public long sizeInMib(String key) {
        String value = confs.get(key);
        if (value == null) {
            throw new NumberFormatException("no value for " + key);
        }
        return mebibytes(value);
    }

    static long mebibytes(String value) {
        String lower = value.toLowerCase(Locale.ROOT).trim();
        Matcher whole = SIZE.matcher(lower);
        if (!whole.matches()) {
            if (FRACTION.matcher(lower).matches()) {
                throw new NumberFormatException("fractional values are not supported: " + value);
            }
            throw new NumberFormatException("not a size: " + value);
        }
        long amount = Long.parseLong(whole.group(1));
        int shift = switch (whole.group(2) == null ? "m" : whole.group(2)) {
            case "b" -> 0;
            case "k", "kb" -> 10;
            case "m", "mb" -> 20;
            case "g", "gb" -> 30;
            case "t", "tb" -> 40;
            case "p", "pb" -> 50;
            default -> throw new NumberFormatException("unknown size unit in " + value);
        };
        if (shift < 20) {
            // to whole MiB, rounding down as Spark's ByteUnit.convertTo does
            return amount >> (20 - shift);
        }
        try {
            return Math.multiplyExact(amount, 1L << (shift - 20));
        } catch (ArithmeticException e) {
            throw new NumberFormatException("too large: " + value);
        }
    }
}
