package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the ConfigMap a SparkApplication's {@code spec.sparkConfigMap} names, with a GET when the
 * application is processed (the bridge keeps no informer on every ConfigMap of the cluster for the few
 * that applications name), into {@link SparkDefaults}. The file may be in {@code data} or, as bytes,
 * in {@code binaryData}. An API error that is not the ConfigMap's absence (no right to read it, the API
 * server unreachable) is logged and read as {@link SparkDefaults.None}: the application is completed
 * without it. Thread-safe.
 */
final class SparkDefaultsReader {
    private static final Logger log = LoggerFactory.getLogger(SparkDefaultsReader.class);

    private final KubernetesClient client;

    SparkDefaultsReader(KubernetesClient client) {
        this.client = requireNonNull(client, "client is null");
    }

    SparkDefaults read(String namespace, String configMap) {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(configMap, "configMap is null");
        ConfigMap object;
        try {
            object = client.configMaps().inNamespace(namespace).withName(configMap).get();
        } catch (KubernetesClientException e) {
            log.warn("configmap={}/{} not read, spark-defaults.conf not checked: {}", namespace, configMap, e.getMessage());
            return SparkDefaults.NONE;
        }
        if (object == null) {
            return new SparkDefaults.Missing(configMap);
        }
        if (object.getData() != null && object.getData().containsKey(SparkDefaults.FILE)) {
            return SparkDefaults.parse(configMap, object.getData().get(SparkDefaults.FILE));
        }
        if (object.getBinaryData() != null && object.getBinaryData().containsKey(SparkDefaults.FILE)) {
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(object.getBinaryData().get(SparkDefaults.FILE));
            } catch (IllegalArgumentException e) {
                return new SparkDefaults.Unparsable(configMap, "binaryData is not base64: " + e.getMessage());
            }
            return SparkDefaults.parse(configMap, new String(bytes, StandardCharsets.UTF_8));
        }
        return SparkDefaults.NONE;
    }
}
