package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.HttpURLConnection;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a ServiceAccount {@code default} in every active namespace, as kube-controller-manager's
 * serviceaccounts controller does: kube-apiserver's ServiceAccount admission refuses a pod whose
 * ServiceAccount does not exist, and on {@code muster up --apiserver real} no controller manager runs
 * unless asked for. A namespace is looked at when it appears and again at each resync, so a deleted
 * account comes back within {@link #RESYNC}. Running beside the real controller is harmless: whichever
 * creates it first wins, the other sees it exists.
 *
 * <p>Informer callbacks do the writes; there are few namespaces and one small write each.
 */
@ThreadSafe
final class DefaultServiceAccounts implements AutoCloseable {
    static final String NAME = "default";
    static final Duration RESYNC = Duration.ofSeconds(30);
    private static final Logger log = LoggerFactory.getLogger(DefaultServiceAccounts.class);

    private final KubernetesClient client;
    private volatile SharedIndexInformer<Namespace> informer;

    DefaultServiceAccounts(KubernetesClient client) {
        this.client = requireNonNull(client, "client is null");
    }

    /** Watches namespaces (once listed, it returns) and makes each one's account as it is seen. */
    void start() {
        informer = client.namespaces().inform(new Handler(), RESYNC.toMillis());
    }

    private void ensure(Namespace namespace) {
        String name = namespace.getMetadata().getName();
        if (namespace.getMetadata().getDeletionTimestamp() != null
                || (namespace.getStatus() != null && "Terminating".equals(namespace.getStatus().getPhase()))) {
            // a terminating namespace refuses new objects
            return;
        }
        try {
            if (client.serviceAccounts().inNamespace(name).withName(NAME).get() != null) {
                return;
            }
            client.serviceAccounts().inNamespace(name)
                    .resource(new ServiceAccountBuilder().withNewMetadata().withName(NAME).withNamespace(name).endMetadata().build())
                    .create();
            log.info("created ServiceAccount {}/{}, which kube-apiserver's admission requires of a pod that names none", name, NAME);
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                // the next resync tries again
                log.warn("cannot create ServiceAccount {}/{}: {}", name, NAME, e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        SharedIndexInformer<Namespace> running = informer;
        if (running != null) {
            running.stop();
        }
    }

    private final class Handler implements ResourceEventHandler<Namespace> {
        @Override
        public void onAdd(Namespace namespace) {
            ensure(namespace);
        }

        @Override
        public void onUpdate(Namespace before, Namespace after) {
            ensure(after);
        }

        @Override
        public void onDelete(Namespace namespace, boolean finalStateUnknown) {
            // its accounts go with it
        }
    }
}
