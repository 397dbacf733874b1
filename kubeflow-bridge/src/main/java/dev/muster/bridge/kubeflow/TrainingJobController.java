package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.inject.Inject;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;

/**
 * TFJobs and PyTorchJobs run by Kubeflow's training operator, completed for Muster (see the package
 * comment). Each term gets a fresh {@link TrainingJobTerm}, so nothing of a lost term survives into the
 * next; a new term sees every job again, and writing a plan twice changes nothing.
 */
@ThreadSafe
public final class TrainingJobController extends TermController {
    public static final String NAME = "kubeflow-training-jobs";

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final Clock clock;

    @Inject
    public TrainingJobController(KubernetesClient client, SharedInformers informers, Clock clock) {
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
        return new TrainingJobTerm(client, informers, clock);
    }
}
