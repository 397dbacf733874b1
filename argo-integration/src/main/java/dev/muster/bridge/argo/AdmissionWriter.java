package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.bridge.argo.server.ArgoServerClient;
import dev.muster.bridge.argo.server.ArgoServerException;
import dev.muster.runtime.binding.EventRecorder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resumes workflows and says why on each: Argo's resume ({@code spec.suspend} removed, as
 * {@code argo resume} does in {@code workflow/util/util.go}, v4.0.5), with
 * {@link AdmissionAnnotations#ADMITTED} in the same patch when the queue admitted it; or, with an Argo Server
 * configured, its resume call ({@code PUT /api/v1/workflows/NS/NAME/resume}), then the mark. Each Event is
 * posted once per term and message.
 */
@ThreadSafe
final class AdmissionWriter {
    static final String ADMITTED_REASON = "Admitted";
    static final String WAITING_REASON = "WaitingForQueue";
    static final String IGNORED_REASON = "AdmissionIgnored";
    private static final Logger log = LoggerFactory.getLogger(AdmissionWriter.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final Optional<ArgoServerClient> server;
    private final EventRecorder events;
    private final Clock clock;
    private final Set<String> posted = ConcurrentHashMap.newKeySet();

    /** With an Argo Server, its resume call resumes workflows (the admitted mark is still written through Kubernetes). */
    AdmissionWriter(KubernetesClient client, Optional<ArgoServerClient> server, EventRecorder events, Clock clock) {
        this.server = requireNonNull(server, "server is null");
        this.client = requireNonNull(client, "client is null");
        this.events = requireNonNull(events, "events is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** The queue admitted it: resume it, marked admitted. */
    void admit(AdmissionRequest workflow, String message) {
        if (resume(workflow, true)) {
            post(workflow, false, ADMITTED_REASON, message);
        }
    }

    /** It cannot be admitted for what it is: resume it without admission. */
    void release(AdmissionRequest workflow, String message) {
        if (resume(workflow, false)) {
            post(workflow, true, IGNORED_REASON, message);
        }
    }

    void waits(AdmissionRequest workflow, String message) {
        post(workflow, false, WAITING_REASON, message);
    }

    void ignored(AdmissionRequest workflow, String message) {
        post(workflow, true, IGNORED_REASON, message);
    }

    /** False when the workflow is gone. */
    private boolean resume(AdmissionRequest workflow, boolean admitted) {
        if (server.isPresent()) {
            return resumeThroughServer(server.get(), workflow, admitted);
        }
        ObjectNode patch = JSON.createObjectNode();
        patch.putObject("spec").putNull("suspend");
        if (admitted) {
            patch.putObject("metadata").putObject("annotations").put(AdmissionAnnotations.ADMITTED, clock.instant().toString());
        }
        if (!patch(workflow, patch)) {
            return false;
        }
        log.info("workflow={} resumed admitted={}", workflow.key(), admitted);
        return true;
    }

    /**
     * Argo Server's resume, then the admitted mark through Kubernetes: in that order, so that a failed resume leaves no
     * mark on a workflow still suspended (the mark keeps a workflow from being resumed again).
     */
    private boolean resumeThroughServer(ArgoServerClient argoServer, AdmissionRequest workflow, boolean admitted) {
        try {
            argoServer.resume(workflow.key().namespace(), workflow.key().name());
        } catch (ArgoServerException e) {
            if (e.status().orElse(0) == HttpURLConnection.HTTP_NOT_FOUND) {
                return false;
            }
            throw e;
        }
        if (admitted) {
            ObjectNode patch = JSON.createObjectNode();
            patch.putObject("metadata").putObject("annotations").put(AdmissionAnnotations.ADMITTED, clock.instant().toString());
            if (!patch(workflow, patch)) {
                return false;
            }
        }
        log.info("workflow={} resumed through the Argo Server admitted={}", workflow.key(), admitted);
        return true;
    }

    /** A JSON merge patch of the workflow; false when it is gone. */
    private boolean patch(AdmissionRequest workflow, ObjectNode patch) {
        try {
            client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace(workflow.key().namespace()).withName(workflow.key().name())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    private void post(AdmissionRequest workflow, boolean warning, String reason, String message) {
        if (!posted.add(workflow.uid() + " " + reason + " " + message)) {
            return;
        }
        log.info("workflow={} {}: {}", workflow.key(), reason, message);
        EventRecorder.Subject subject = new EventRecorder.Subject(ArgoApi.API_VERSION, ArgoApi.WORKFLOW_KIND, workflow.key().namespace(),
                workflow.key().name(), workflow.uid());
        if (!events.record(subject, warning, reason, message).join()) {
            log.warn("event not recorded workflow={} reason={}", workflow.key(), reason);
        }
    }
}
