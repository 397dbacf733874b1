package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.inject.Inject;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;

/**
 * Native mode: Muster's own TFJob and PyTorchJob controller, for clusters and laptops without the training
 * operator (see {@code NATIVE.md}). Never run it beside the operator: both would make and delete the same pods.
 * Each term gets a fresh {@link NativeJobTerm}; a new term sees every job again, and a sync written twice makes
 * nothing twice.
 */
@ThreadSafe
public final class NativeJobController extends TermController {
    public static final String NAME = "kubeflow-native-jobs";

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final Clock clock;

    @Inject
    public NativeJobController(KubernetesClient client, SharedInformers informers, Clock clock) {
        this.client = requireNonNull(client, "client is null");
        this.informers = requireNonNull(informers, "informers is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Term newTerm() {
        return new NativeJobTerm(client, informers, clock);
    }
}
