package dev.muster.bridge.spark.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableMap;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ConfigMap of {@code spec.sparkConfigMap}, read from a test API server. */
class SparkDefaultsReaderTest {
    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();
    private final SparkDefaultsReader reader = new SparkDefaultsReader(client);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aConfigMapThatDoesNotExistIsMissing() {
        assertThat(reader.read("default", "spark-conf")).isEqualTo(new SparkDefaults.Missing("spark-conf"));
    }

    @Test
    void theFileIsReadFromDataOrFromBinaryData() {
        // given
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("text").endMetadata()
                .addToData("spark-defaults.conf", "spark.executor.instances 4\n").addToData("log4j2.properties", "x=y").build()).create();
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("bytes").endMetadata()
                .addToBinaryData("spark-defaults.conf", Base64.getEncoder().encodeToString("spark.executor.memory=2g\n"
                        .getBytes(StandardCharsets.UTF_8))).build()).create();
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("log-only").endMetadata()
                .addToData("log4j2.properties", "x=y").build()).create();

        // then
        assertThat(reader.read("default", "text")).isEqualTo(new SparkDefaults.Loaded("text", ImmutableMap.of("spark.executor.instances", "4")));
        assertThat(reader.read("default", "bytes")).isEqualTo(new SparkDefaults.Loaded("bytes", ImmutableMap.of("spark.executor.memory", "2g")));
        assertThat(reader.read("default", "log-only")).isEqualTo(SparkDefaults.NONE);
        assertThat(reader.read("other", "text")).as("a ConfigMap of another namespace is not the application's")
                .isEqualTo(new SparkDefaults.Missing("text"));
    }
}
