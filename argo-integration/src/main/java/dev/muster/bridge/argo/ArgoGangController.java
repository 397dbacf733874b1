package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.inject.Inject;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;

/**
 * Gangs for the fan-outs of Argo Workflow templates annotated {@code muster.dev/gang: "true"}. Each term
 * gets a fresh {@link GangTerm}, so nothing of a lost term survives into the next; a new term sees
 * every Workflow again, and writing a plan twice changes nothing.
 */
@ThreadSafe
public final class ArgoGangController extends TermController {
    public static final String NAME = "argo-gangs";

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final Clock clock;

    @Inject
    public ArgoGangController(KubernetesClient client, SharedInformers informers, Clock clock) {
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
        return new GangTerm(client, informers, clock);
    }
}
