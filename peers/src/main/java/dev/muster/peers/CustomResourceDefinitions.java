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

/**
 * Installs CRDs on a real control plane and waits until they are served: Muster's own (those of
 * {@code deploy/crds.yaml}, packaged with this module) when it starts, and a peer's (Argo's, the
 * training operator's, ...) when a test asks for them.
 */
public final class CustomResourceDefinitions {
    static final String RESOURCE = "crds.yaml";
    /**
     * scheduler-plugins' PodGroup CRD ({@code scheduling.x-k8s.io/v1alpha1}), a resource of this class:
     * Muster's runtime waits until it can list those PodGroups, and a bridge's peer may ask for it.
     */
    public static final String SCHEDULER_PLUGINS_POD_GROUPS = "crds/scheduling.x-k8s.io_podgroups.yaml";

    private final KubernetesClient client;

    public CustomResourceDefinitions(KubernetesClient client) {
        this.client = requireNonNull(client, "client is null");
    }

    /** Muster's own CRDs; returns their names once each is Established. */
    List<String> install() {
        return install(CustomResourceDefinitions.class, RESOURCE);
    }

    /**
     * Applies (server-side, so a second install changes nothing) every CRD of the YAML stream
     * {@code resource}, a classpath resource of {@code owner}, and returns their names once each is
     * Established; a refusal names the CRD, the resource and the server's reason.
     */
    public List<String> install(Class<?> owner, String resource) {
        List<HasMetadata> items;
        try (InputStream yaml = owner.getResourceAsStream(resource)) {
            if (yaml == null) {
                throw new PeerException("BUG: " + resource + " is not packaged next to " + owner.getName());
            }
            items = client.load(yaml).items();
        }
        catch (IOException e) {
            throw new PeerException("cannot read " + resource + ": " + e.getMessage(), e);
        }
        ImmutableList.Builder<String> names = ImmutableList.builder();
        for (HasMetadata item : items) {
            String name = item.getMetadata().getName();
            try {
                client.resource(item).forceConflicts().serverSideApply();
            }
            catch (KubernetesClientException e) {
                throw new PeerException(format("kube-apiserver refused CRD %s from %s: %s",
                        name, resource, e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage()), e);
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
        // a CRD just applied may have a status without conditions yet
        return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null && crd.getStatus().getConditions().stream()
                .anyMatch(condition -> condition.getType().equals("Established") && condition.getStatus().equals("True"));
    }
}
