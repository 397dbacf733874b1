package dev.muster.embedded;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Optional;

/**
 * Sees each request a client sends the embedded API server before the server answers it, and may
 * answer it with a failure instead, as an admission webhook, a priority-and-fairness limit or an
 * overloaded kube-apiserver would: what a test needs to inject faults into a real client's path (a
 * 503 to one pod's Binding, a 500 to the leases) and to count the requests a component made. Passed
 * to {@link EmbeddedApiServer#start(int, RequestInterceptor)} or {@link
 * EmbeddedApiServer#startPlainHttp(int, RequestInterceptor)}; the server's own requests while it starts
 * (its namespaces and CRDs) are not shown to it.
 *
 * <p>It is called once per request, WebSocket upgrades and watches included, on the thread that serves
 * the server's connections, possibly from several threads at once: it must be thread-safe, must not
 * block, and must not call the server.
 */
@FunctionalInterface
public interface RequestInterceptor {
    /** Answers nothing: the server answers every request itself. */
    RequestInterceptor NONE = request -> Optional.empty();

    /**
     * The failure to answer {@code request} with, or empty to let the server answer it. A request
     * answered here does not reach the store: nothing is written and no watcher sees anything.
     */
    Optional<Failure> intercept(Request request);

    /**
     * A request as the server received it.
     *
     * @param method the HTTP method, upper case ({@code GET}, {@code POST}, {@code PATCH}, ...)
     * @param path the path with its query, as sent (a watch's {@code watch} parameter reads {@code true}
     *     whatever true value the client sent)
     */
    record Request(String method, String path) {
        public Request {
            requireNonNull(method, "method is null");
            requireNonNull(path, "path is null");
            method = method.toUpperCase(Locale.ROOT);
        }

        /** The path without its query. */
        public String pathWithoutQuery() {
            int query = path.indexOf('?');
            return query < 0 ? path : path.substring(0, query);
        }
    }

    /**
     * A failure answered as kube-apiserver answers one: a {@code Status} with {@code status: Failure},
     * this code, reason and message.
     *
     * @param code an HTTP error code, 400 to 599
     * @param reason the {@code StatusReason}, e.g. {@code ServiceUnavailable}; empty for none, as
     *     kube-apiserver gives none for some codes
     */
    record Failure(int code, String reason, String message) {
        public Failure {
            checkArgument(code >= 400 && code <= 599, "code must be an HTTP error code: %s", code);
            requireNonNull(reason, "reason is null");
            requireNonNull(message, "message is null");
        }

        /**
         * A failure with the reason apimachinery's {@code errors.NewGenericServerResponse} gives the
         * code: 409 {@code Conflict}, 503 {@code ServiceUnavailable}, any other 5xx {@code InternalError},
         * and so on; none for a 4xx it has no reason for.
         */
        public static Failure of(int code, String message) {
            String reason = switch (code) {
                case 400 -> "BadRequest";
                case 401 -> "Unauthorized";
                case 403 -> "Forbidden";
                case 404 -> "NotFound";
                case 405 -> "MethodNotAllowed";
                case 406 -> "NotAcceptable";
                case 409 -> "Conflict";
                case 415 -> "UnsupportedMediaType";
                case 422 -> "Invalid";
                case 429 -> "TooManyRequests";
                case 500 -> "InternalError";
                case 503 -> "ServiceUnavailable";
                case 504 -> "Timeout";
                default -> code >= 500 ? "InternalError" : "";
            };
            return new Failure(code, reason, message);
        }
    }
}
