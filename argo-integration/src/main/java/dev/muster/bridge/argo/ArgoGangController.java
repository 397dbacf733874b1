package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.inject.Inject;
import dev.muster.runtime.admission.AdmissionTrial;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import dev.muster.bridge.argo.server.ArgoServerClient;
import dev.muster.bridge.argo.server.ArgoServerSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Optional;

/**
 * Gangs for the fan-outs of Argo Workflow templates annotated {@code muster.dev/gang: "true"}, and the
 * admission of workflows submitted suspended ({@link AdmissionAnnotations}). Each term
 * gets a fresh {@link GangTerm}, so nothing of a lost term survives into the next; a new term sees
 * every Workflow again, and writing a plan twice changes nothing.
 */
@ThreadSafe
public final class ArgoGangController extends TermController {
    public static final String NAME = "argo-gangs";

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final Clock clock;
    private final AdmissionTrial trial;
    private final Optional<ArgoServerClient> server;

    @Inject
    public ArgoGangController(KubernetesClient client, SharedInformers informers, Clock clock, AdmissionTrial trial,
            Optional<ArgoServerSettings> server) {
        this.client = requireNonNull(client, "client is null");
        this.informers = requireNonNull(informers, "informers is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.trial = requireNonNull(trial, "trial is null");
        this.server = requireNonNull(server, "server is null").map(ArgoServerClient::create);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Term newTerm() {
        return new GangTerm(client, informers, clock, trial, server);
    }
}
