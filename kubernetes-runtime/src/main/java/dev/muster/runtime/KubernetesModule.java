package dev.muster.runtime;

import static java.util.Objects.requireNonNull;

import com.google.inject.AbstractModule;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The one client of the process, to one API server, bound {@link Unfenced}. The caller made it and closes
 * it after the runtime stopped; everything in the injector shares it, most through the view that
 * {@link RuntimeModule} binds as the plain {@code KubernetesClient} (fenced by the lease with leader election).
 */
public final class KubernetesModule extends AbstractModule {
    private final KubernetesClient client;

    public KubernetesModule(KubernetesClient client) {
        this.client = requireNonNull(client, "client is null");
    }

    @Override
    protected void configure() {
        bind(KubernetesClient.class).annotatedWith(Unfenced.class).toInstance(client);
    }
}
