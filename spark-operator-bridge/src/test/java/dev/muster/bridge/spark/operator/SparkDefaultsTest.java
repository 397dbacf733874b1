package dev.muster.bridge.spark.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.util.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/** {@code spark-defaults.conf} read as Spark 4.2.0 reads it: held to Spark's own reader, run in the test. */
class SparkDefaultsTest {
    private static final String FILE = """
            # a comment
            ! another comment
            spark.executor.instances   10
            spark.executor.memory=8g
            spark.executor.cores: 2
            spark.driver.memoryOverhead = 1g   \t
            spark.executor.extraJavaOptions -Da=1 \\
                -Db=2
            spark.kubernetes.executor.request.cores 500m
            hadoop.not.spark 1
            spark.empty
            spark.kubernetes.driver.label.a  x\\n\\t
            """;

    @TempDir
    Path directory;

    @Test
    void readsTheFileAsSparkDoesKeepingSparksOwnKeys() throws IOException {
        // given: the file, and what Spark's Utils.getPropertiesFromFile makes of it, with spark-submit's spark.* filter
        Path file = Files.writeString(directory.resolve("spark-defaults.conf"), FILE, StandardCharsets.UTF_8);
        Map<String, String> spark = new TreeMap<>();
        CollectionConverters.asJava(Utils.getPropertiesFromFile(file.toString())).forEach((key, value) -> {
            if (key.startsWith("spark.")) {
                spark.put(key, value);
            }
        });

        // when
        SparkDefaults read = SparkDefaults.parse("spark-conf", FILE);

        // then
        assertThat(read).isInstanceOf(SparkDefaults.Loaded.class);
        Map<String, String> confs = ((SparkDefaults.Loaded) read).confs();
        assertThat(confs).isEqualTo(spark);
        assertThat(confs).containsEntry("spark.executor.instances", "10").containsEntry("spark.driver.memoryOverhead", "1g")
                .containsEntry("spark.executor.extraJavaOptions", "-Da=1 -Db=2").containsEntry("spark.empty", "")
                .containsEntry("spark.kubernetes.driver.label.a", "x\n")
                .doesNotContainKey("hadoop.not.spark");
    }

    @Test
    void aBadEscapeIsUnparsableWithItsReason() {
        SparkDefaults read = SparkDefaults.parse("spark-conf", "spark.executor.memory \\u12zz\n");

        assertThat(read).isEqualTo(new SparkDefaults.Unparsable("spark-conf", "Malformed \\uxxxx encoding."));
    }
}
