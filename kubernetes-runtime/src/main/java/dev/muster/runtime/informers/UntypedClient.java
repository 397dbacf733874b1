package dev.muster.runtime.informers;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * A client for watching objects in their generic form. With an ordinary client, fabric8 reads each watch
 * event of a kind it has a model class for (a pod) into that class and then converts it to the
 * {@link GenericKubernetesResource} a generic informer asked for: a bean deserialisation and a
 * serialisation more per event, the largest part of a watcher's cost when every bind comes back as an
 * event. A client whose serialization maps no kind to a model class reads an event straight into the
 * generic form; only {@code Status}, which a watch's {@code ERROR} event carries, keeps its class. It
 * has its own HTTP client; the caller closes it.
 */
public final class UntypedClient {
    private UntypedClient() {}

    /** A new client to the same API server, with the same configuration, that reads every object generically. */
    public static KubernetesClient of(KubernetesClient client) {
        KubernetesSerialization serialization = new KubernetesSerialization(new ObjectMapper(), false);
        // but a watch's ERROR event must still read as a Status: on a 410 Gone an informer lists anew
        serialization.registerKubernetesResource("v1", "Status", Status.class);
        return new KubernetesClientBuilder()
                .withConfig(client.getConfiguration())
                .withKubernetesSerialization(serialization)
                .build();
    }
}
