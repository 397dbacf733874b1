package dev.muster.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

/** YAML for gangs of Muster's pods, and creating it. */
final class Gangs {
    private Gangs() {}

    /**
     * A PodGroup of {@code size} and its pods {@code NAME-0} ..., each asking for {@code requests}
     * (a YAML flow map body such as {@code cpu: "1"}), running for {@code duration} if not empty.
     */
    static String gang(String name, int size, String requests, String duration) {
        StringBuilder yaml = new StringBuilder("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: %s, namespace: default}
                spec: {minMember: %d, queue: default}
                """.formatted(name, size));
        for (int index = 0; index < size; index++) {
            yaml.append("""
                    ---
                    apiVersion: v1
                    kind: Pod
                    metadata:
                      name: %s-%d
                      namespace: default
                      annotations: {scheduling.k8s.io/group-name: %s%s}
                    spec:
                      schedulerName: muster
                      containers: [{name: main, image: busybox, resources: {requests: {%s}}}]
                    """.formatted(name, index, name, duration.isEmpty() ? "" : ", muster.dev/duration: " + duration, requests));
        }
        return yaml.toString();
    }

    static void create(KubernetesClient client, String yaml) {
        for (HasMetadata object : client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
            client.resource(object).create();
        }
    }
}
