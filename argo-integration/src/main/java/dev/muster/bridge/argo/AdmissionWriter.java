package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.runtime.binding.EventRecorder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resumes workflows and says why on each: Argo's resume ({@code spec.suspend} removed, as
 * {@code argo resume} does in {@code workflow/util/util.go}, v4.0.5), with
 * {@link AdmissionAnnotations#ADMITTED} in the same patch when the queue admitted it. Each Event is
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
    private final EventRecorder events;
    private final Clock clock;
    private final Set<String> posted = ConcurrentHashMap.newKeySet();

    AdmissionWriter(KubernetesClient client, EventRecorder events, Clock clock) {
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
        ObjectNode patch = JSON.createObjectNode();
        patch.putObject("spec").putNull("suspend");
        if (admitted) {
            patch.putObject("metadata").putObject("annotations").put(AdmissionAnnotations.ADMITTED, clock.instant().toString());
        }
        try {
            client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace(workflow.key().namespace()).withName(workflow.key().name())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return false;
            }
            throw e;
        }
        log.info("workflow={} resumed admitted={}", workflow.key(), admitted);
        return true;
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
