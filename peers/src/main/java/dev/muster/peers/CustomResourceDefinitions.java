package dev.muster.peers;

import static java.lang.String.format;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;

/** Installs the CRDs of {@code deploy/crds.yaml} (packaged with this module) and waits until they are served. */
final class CustomResourceDefinitions {
    static final String RESOURCE = "crds.yaml";

    private final KubernetesClient client;

    CustomResourceDefinitions(KubernetesClient client) {
        this.client = requireNonNull(client, "client is null");
    }

    /** Creates every CRD and returns their names once each is Established; a refusal names the CRD and the server's reason. */
    List<String> install() {
        List<HasMetadata> items;
        try (InputStream yaml = CustomResourceDefinitions.class.getResourceAsStream(RESOURCE)) {
            if (yaml == null) {
                throw new PeerException("BUG: " + RESOURCE + " is not packaged next to " + CustomResourceDefinitions.class.getName());
            }
            items = client.load(yaml).items();
        }
        catch (IOException e) {
            throw new PeerException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
        ImmutableList.Builder<String> names = ImmutableList.builder();
        for (HasMetadata item : items) {
            String name = item.getMetadata().getName();
            try {
                client.resource(item).create();
            }
            catch (KubernetesClientException e) {
                throw new PeerException(format("kube-apiserver refused CRD %s from deploy/%s: %s",
                        name, RESOURCE, e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage()), e);
            }
            names.add(name);
        }
        List<String> installed = names.build();
        Awaitility.await("CRDs " + installed + " established")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> installed.stream().allMatch(this::established));
        return installed;
    }

    private boolean established(String name) {
        CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions().withName(name).get();
        return crd != null && crd.getStatus() != null && crd.getStatus().getConditions().stream()
                .anyMatch(condition -> condition.getType().equals("Established") && condition.getStatus().equals("True"));
    }
}
