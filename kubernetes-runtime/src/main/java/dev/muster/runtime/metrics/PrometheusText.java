package dev.muster.runtime.metrics;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Writes metric families in the Prometheus text exposition format (version 0.0.4): a {@code # HELP}
 * and a {@code # TYPE} line per family, then one line per sample, label values escaped.
 *
 * <p>Not thread-safe: build one per scrape.
 */
public final class PrometheusText {
    /** The Content-Type of a scrape answer. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    private final StringBuilder text = new StringBuilder();

    /** The kinds of family this writer emits. */
    public enum Type {
        COUNTER("counter"),
        GAUGE("gauge"),
        HISTOGRAM("histogram");

        private final String text;

        Type(String text) {
            this.text = text;
        }
    }

    /** Starts a family; its samples follow. */
    public PrometheusText family(String name, Type type, String help) {
        checkArgument(NAME.matcher(name).matches(), "invalid metric name: %s", name);
        text.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        text.append("# TYPE ").append(name).append(' ').append(type.text).append('\n');
        return this;
    }

    public PrometheusText sample(String name, double value) {
        return sample(name, Map.of(), value);
    }

    /** One sample; {@code labels} in the order to print them. */
    public PrometheusText sample(String name, Map<String, String> labels, double value) {
        requireNonNull(labels, "labels is null");
        text.append(name);
        if (!labels.isEmpty()) {
            text.append('{');
            boolean first = true;
            for (Map.Entry<String, String> label : labels.entrySet()) {
                if (!first) {
                    text.append(',');
                }
                first = false;
                text.append(label.getKey()).append("=\"").append(escape(label.getValue())).append('"');
            }
            text.append('}');
        }
        text.append(' ').append(format(value)).append('\n');
        return this;
    }

    @Override
    public String toString() {
        return text.toString();
    }

    static String format(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
