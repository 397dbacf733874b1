package dev.muster.bridge.spark;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.HttpURLConnection;
import java.util.Optional;
import org.apache.spark.SparkConf;

/**
 * The step's own connection to the API server, for what Spark does not do for a feature step: look up
 * the queue and, on the executor side, create the PodGroup. Like Spark's {@code VolcanoFeatureStep}
 * (whose {@code DefaultVolcanoClient} does the same), it takes fabric8's auto-configuration (kubeconfig,
 * or the pod's service account in the driver pod), with the API server of {@code spark.master}.
 */
final class KubernetesAccess {
    static final ResourceDefinitionContext PODGROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups")
            .withNamespaced(true).build();
    static final ResourceDefinitionContext QUEUES = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("Queue").withPlural("queues")
            .withNamespaced(false).build();

    private KubernetesAccess() {}

    /** A client for the API server that {@code spark.master} ({@code k8s://URL}) names, in {@code namespace}. */
    static KubernetesClient connect(SparkConf conf, String namespace) {
        Config config = Config.autoConfigure(null);
        String master = conf.get("spark.master", "");
        if (master.startsWith("k8s://")) {
            String url = master.substring("k8s://".length());
            // Spark's own rule (KubernetesUtils.parseMasterUrl): no scheme means https
            config.setMasterUrl(url.contains("://") ? url : "https://" + url);
        }
        config.setNamespace(namespace);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /**
     * Whether the cluster has the Volcano Queue {@code name}: empty when it cannot be told (no Queue
     * CRD served, or no right to read Queues).
     */
    static Optional<Boolean> queueExists(KubernetesClient client, String name) {
        try {
            if (client.genericKubernetesResources(QUEUES).withName(name).get() != null) {
                return Optional.of(true);
            }
            // a missing object and a missing CRD both answer 404; listing tells them apart
            client.genericKubernetesResources(QUEUES).list(new ListOptionsBuilder().withLimit(1L).build());
            return Optional.of(false);
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND || e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Creates {@code podGroup} unless one of its name exists; true if this call created it. */
    static boolean createIfAbsent(KubernetesClient client, GenericKubernetesResource podGroup) {
        try {
            client.genericKubernetesResources(PODGROUPS).inNamespace(podGroup.getMetadata().getNamespace())
                    .resource(podGroup).create();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                return false;
            }
            throw e;
        }
    }
}
