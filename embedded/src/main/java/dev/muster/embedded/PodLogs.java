package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.fabric8.mockwebserver.http.MockResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET .../pods/NAME/log}: what kube-apiserver checks ({@code LogLocation} of
 * {@code pkg/registry/core/pod/strategy.go}, v1.34.4), then what a kubelet answers
 * ({@code validateContainerLogStatus} of {@code pkg/kubelet/kubelet_pods.go}), with the log a simulated
 * container has: nothing runs, so its log is what the simulated kubelet knows of it, one line when it
 * started and one when it ended, made from the container's status:
 *
 * <pre>
 * muster: simulated container "main" of pod default/train-0 started on node node-1 (image busybox)
 * muster: simulated container "main" exited with code 0 (Completed)
 * </pre>
 *
 * <p>Errors as kube-apiserver words them: 404 for a missing pod; 400 for a container the pod does not
 * have, or none named when it has several ({@code choose one of: [a b]}); a pod on no node yet answers
 * 200 with an empty log. Then the kubelet's, as 400: a container {@code waiting to start:
 * ContainerCreating} or {@code not available}, no {@code previous terminated container}. Of
 * {@code PodLogOptions}: {@code container}, {@code previous}, {@code timestamps} (each line prefixed with
 * its time, nine fraction digits, as the kubelet writes it), {@code tailLines}, {@code limitBytes},
 * {@code sinceSeconds} and {@code sinceTime}. {@code follow} answers what there is and ends the stream.
 */
final class PodLogs {
    static final Pattern PATH = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/log$");
    private static final DateTimeFormatter NANOS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSX").withZone(ZoneOffset.UTC);

    private PodLogs() {}

    /** Whether a GET of this path (without its query) reads a pod's log. */
    static Optional<Matcher> matches(String bare) {
        Matcher matcher = PATH.matcher(bare);
        return matcher.matches() ? Optional.of(matcher) : Optional.empty();
    }

    /**
     * The answer to a log request for the pod stored under that namespace and name.
     *
     * @param pod the stored pod, missing if there is none
     */
    static MockResponse answer(String namespace, String name, JsonNode pod, QueryParameters query, Instant now) {
        if (pod.isMissingNode()) {
            return Statuses.notFound(new ResourcePath("", "v1", namespace, "pods", name, ""));
        }
        List<String> names = new ArrayList<>();
        for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
            pod.path("spec").path(list).forEach(container -> names.add(container.path("name").asText()));
        }
        String container = query.get("container").orElse("");
        if (container.isEmpty()) {
            JsonNode containers = pod.path("spec").path("containers");
            if (containers.size() == 0) {
                return Statuses.badRequest("a container name must be specified for pod " + name);
            }
            if (containers.size() > 1) {
                return Statuses.badRequest("a container name must be specified for pod " + name + ", choose one of: ["
                        + String.join(" ", names) + "]");
            }
            container = containers.path(0).path("name").asText();
        } else if (!names.contains(container)) {
            return Statuses.badRequest("container " + container + " is not valid for pod " + name);
        }
        if (pod.path("spec").path("nodeName").asText("").isEmpty()) {
            // kube-apiserver has no kubelet to ask: an empty location, an empty log
            return text("");
        }
        KubeletAnswer answer = kubeletAnswer(namespace, name, pod, container, query, now);
        return answer.status() == KubeletAnswer.OK ? text(answer.text()) : Statuses.badRequest(answer.text());
    }

    /**
     * What the kubelet answers to {@code GET /containerLogs/NAMESPACE/NAME/CONTAINER}: the log, or 400 with its
     * error text (which kube-apiserver passes on as a BadRequest with that text).
     */
    record KubeletAnswer(int status, String text) {
        static final int OK = 200;
        static final int BAD_REQUEST = 400;
    }

    /**
     * The kubelet's half of a log request, for a pod bound to a node and a container it has; the container's
     * log is read from its status.
     */
    static KubeletAnswer kubeletAnswer(String namespace, String name, JsonNode pod, String container, QueryParameters query,
            Instant now) {
        JsonNode status = containerStatus(pod, container);
        if (status.isMissingNode()) {
            return pod.path("status").path("phase").asText("Pending").equals("Pending")
                    ? kubeletError(container, name, "is waiting to start: ContainerCreating")
                    : kubeletError(container, name, "is not available");
        }
        if (query.flag("previous")) {
            return kubeletError("previous terminated container \"" + container + "\" in pod \"" + name + "\" not found");
        }
        JsonNode state = status.path("state");
        if (state.has("waiting")) {
            return kubeletError(container, name, "is waiting to start: " + state.path("waiting").path("reason").asText(""));
        }
        List<Line> lines = lines(namespace, name, pod.path("spec").path("nodeName").asText(), container, status);
        try {
            return new KubeletAnswer(KubeletAnswer.OK, printed(lines, query, now));
        } catch (IllegalArgumentException e) {
            return kubeletError(e.getMessage());
        }
    }

    private record Line(Instant time, String text) {}

    private static List<Line> lines(String namespace, String name, String node, String container, JsonNode status) {
        List<Line> lines = new ArrayList<>();
        JsonNode running = status.path("state").path("running");
        JsonNode terminated = status.path("state").path("terminated");
        String startedAt = running.path("startedAt").asText(terminated.path("startedAt").asText(""));
        if (!startedAt.isEmpty()) {
            lines.add(new Line(Instant.parse(startedAt), "muster: simulated container \"" + container + "\" of pod " + namespace + "/" + name
                    + " started on node " + node + " (image " + status.path("image").asText("") + ")"));
        }
        if (!terminated.isMissingNode() && !terminated.path("finishedAt").asText("").isEmpty()) {
            lines.add(new Line(Instant.parse(terminated.path("finishedAt").asText()), "muster: simulated container \"" + container
                    + "\" exited with code " + terminated.path("exitCode").asInt() + " (" + terminated.path("reason").asText("") + ")"));
        }
        return lines;
    }

    private static String printed(List<Line> lines, QueryParameters query, Instant now) {
        Optional<Instant> since = query.get("sinceTime").map(PodLogs::instant)
                .or(() -> query.get("sinceSeconds").map(seconds -> now.minusSeconds(number("sinceSeconds", seconds))));
        List<Line> kept = since.map(from -> lines.stream().filter(line -> !line.time().isBefore(from)).toList()).orElse(lines);
        Optional<Long> tail = query.get("tailLines").map(text -> number("tailLines", text));
        if (tail.isPresent() && tail.get() < kept.size()) {
            kept = kept.subList(kept.size() - tail.get().intValue(), kept.size());
        }
        StringBuilder text = new StringBuilder();
        boolean timestamps = query.flag("timestamps");
        for (Line line : kept) {
            if (timestamps) {
                text.append(NANOS.format(line.time())).append(' ');
            }
            text.append(line.text()).append('\n');
        }
        Optional<Long> limit = query.get("limitBytes").map(bytes -> number("limitBytes", bytes));
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        if (limit.isPresent() && limit.get() < bytes.length) {
            return new String(bytes, 0, limit.get().intValue(), StandardCharsets.UTF_8);
        }
        return text.toString();
    }

    private static JsonNode containerStatus(JsonNode pod, String container) {
        for (String list : List.of("initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses")) {
            for (JsonNode status : pod.path("status").path(list)) {
                if (status.path("name").asText().equals(container)) {
                    return status;
                }
            }
        }
        return MissingNode.getInstance();
    }

    private static long number(String parameter, String text) {
        try {
            long value = Long.parseLong(text);
            if (value < 0) {
                throw new IllegalArgumentException(parameter + " " + text + " is negative");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(parameter + " '" + text + "' is not a whole number", e);
        }
    }

    private static Instant instant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("sinceTime '" + text + "' is not an RFC 3339 time", e);
        }
    }

    private static KubeletAnswer kubeletError(String container, String pod, String what) {
        return kubeletError("container \"" + container + "\" in pod \"" + pod + "\" " + what);
    }

    /** The kubelet's 400, which kube-apiserver passes on as a BadRequest with its text. */
    private static KubeletAnswer kubeletError(String message) {
        return new KubeletAnswer(KubeletAnswer.BAD_REQUEST, message);
    }

    private static MockResponse text(String body) {
        return new MockResponse().setResponseCode(200).setHeader("Content-Type", "text/plain").setBody(body);
    }
}
