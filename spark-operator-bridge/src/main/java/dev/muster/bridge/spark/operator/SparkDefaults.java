package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What the bridge found of a SparkApplication's {@code spec.sparkConfigMap}: the ConfigMap the
 * operator's webhook mounts at {@code /etc/spark/conf} in the driver and executor pods, with
 * {@code SPARK_CONF_DIR} pointing there ({@code internal/webhook/sparkpod_defaulter.go},
 * {@code addSparkConfigMap}), and its {@code spark-defaults.conf}.
 *
 * <p>Those confs do not size any pod with Spark 4.2.0 and the operator v2.5.2: the operator's own
 * {@code spark-submit} (which builds the driver pod) runs in the operator's pod, where the ConfigMap is
 * not mounted; the driver JVM (which builds the executor pods) is started by Spark's
 * {@code DriverCommandFeatureStep} with {@code --properties-file /opt/spark/conf/spark.properties}, and
 * Spark 4.2.0's {@code SparkSubmitArguments.mergeDefaultSparkProperties} loads
 * {@code $SPARK_CONF_DIR/spark-defaults.conf} only without a properties file or with
 * {@code --load-spark-defaults}, which nothing passes there (the operator's {@code LoadSparkDefaults}
 * feature gate adds it to its own {@code spark-submit} only). So the bridge reads the file to tell the
 * user, not to count it (see {@link SparkApplicationPlanner}).
 */
public sealed interface SparkDefaults {
    /** The ConfigMap key Spark reads as its defaults file. */
    String FILE = "spark-defaults.conf";

    /** No {@code spec.sparkConfigMap}, no {@value #FILE} in it, or the ConfigMap could not be read (not its fault). */
    record None() implements SparkDefaults {}

    /** {@code spec.sparkConfigMap} names a ConfigMap that does not exist. */
    record Missing(String configMap) implements SparkDefaults {
        public Missing {
            requireNonNull(configMap, "configMap is null");
        }
    }

    /** Its {@value #FILE} is not a properties file. */
    record Unparsable(String configMap, String message) implements SparkDefaults {
        public Unparsable {
            requireNonNull(configMap, "configMap is null");
            requireNonNull(message, "message is null");
        }
    }

    /** Its {@value #FILE}, as Spark would read it: the {@code spark.*} keys, values trimmed. */
    record Loaded(String configMap, ImmutableMap<String, String> confs) implements SparkDefaults {
        public Loaded {
            requireNonNull(configMap, "configMap is null");
            confs = ImmutableMap.copyOf(confs);
        }
    }

    SparkDefaults NONE = new None();

    /**
     * Reads {@value #FILE} as Spark 4.2.0's {@code Utils.getPropertiesFromFile} does ({@link Properties#load(java.io.Reader)},
     * then each value trimmed of spaces and control characters at both ends but for line breaks, as its
     * {@code trimExceptCRLF}), keeping the keys {@code spark-submit} keeps ({@code spark.*}).
     */
    static SparkDefaults parse(String configMap, String file) {
        requireNonNull(configMap, "configMap is null");
        requireNonNull(file, "file is null");
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(file));
        } catch (IllegalArgumentException e) {
            return new Unparsable(configMap, String.valueOf(e.getMessage()));
        } catch (IOException e) {
            // a StringReader does not fail
            throw new UncheckedIOException(e);
        }
        Map<String, String> confs = new TreeMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith("spark.")) {
                confs.put(key, trimExceptLineBreaks(properties.getProperty(key)));
            }
        }
        return new Loaded(configMap, ImmutableMap.copyOf(confs));
    }

    private static String trimExceptLineBreaks(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && trimmed(value.charAt(start))) {
            start++;
        }
        while (end > start && trimmed(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(start, end);
    }

    private static boolean trimmed(char character) {
        return character <= ' ' && character != '\r' && character != '\n';
    }
}
