package dev.muster.bridge.airflow.api;

import static java.lang.String.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.bridge.airflow.api.AirflowApiException.Failure;
import java.net.http.HttpTimeoutException;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * Turns what the generated clients throw (one {@code ApiException} class per generated package, so
 * taken apart into its code, cause and body) into an {@link AirflowApiException} naming the setting. A 404
 * is an unknown DAG or run only where the address names one and the body is Airflow's answer about it
 * (as the real Airflow 3.3.2 and 2.11.2 answer); on the version or the token, or with any other body, it
 * means that the address serves no such API version.
 */
final class ApiFailures {
    private static final int BODY_EXCERPT = 200;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ApiFailures() {}

    static AirflowApiException classify(AirflowSettings settings, String call, int code, Throwable cause, String body) {
        String where = format("Airflow REST API %s at %s (%s)", settings.apiVersion().name().toLowerCase(Locale.ROOT),
                settings.url(), AirflowSettings.URL);
        if (code == 0) {
            if (cause instanceof HttpTimeoutException) {
                return new AirflowApiException(Failure.TIMEOUT, AirflowSettings.REQUEST_TIMEOUT, format(
                        "%s: %s: no answer within %s=%s", where, call, AirflowSettings.REQUEST_TIMEOUT, settings.requestTimeout()), cause);
            }
            if (cause instanceof JsonProcessingException) {
                return new AirflowApiException(Failure.BAD_RESPONSE, AirflowSettings.API_VERSION, format(
                        "%s: %s: the answer is not what API %s returns (check %s): %s", where, call,
                        settings.apiVersion(), AirflowSettings.API_VERSION, cause.getMessage()), cause);
            }
            String setting = cause instanceof SSLException ? AirflowSettings.CA_FILE : AirflowSettings.URL;
            return new AirflowApiException(Failure.UNREACHABLE, setting, format(
                    "%s: %s: unreachable (check %s): %s", where, call, setting, describe(cause)), cause);
        }
        String excerpt = body == null ? "" : body.substring(0, Math.min(body.length(), BODY_EXCERPT)).strip();
        if (code == 401 || code == 403) {
            return new AirflowApiException(Failure.UNAUTHORIZED, AirflowSettings.PASSWORD, format(
                    "%s: %s: HTTP %s, the credentials of %s are refused (check %s and %s): %s", where, call, code,
                    settings.username().isEmpty() ? "(no user)" : settings.username(),
                    AirflowSettings.USERNAME, AirflowSettings.PASSWORD, excerpt), cause);
        }
        if (code == 404 && namesDagOrRun(call) && isAirflowsNotFound(settings.apiVersion(), body)) {
            return new AirflowApiException(Failure.NOT_FOUND, AirflowSettings.API_VERSION, format(
                    "%s: %s: HTTP 404, an unknown DAG or run: %s", where, call, excerpt), cause);
        }
        if (code == 404) {
            // the version, the token, or a DAG's address answered by no Airflow handler: another API here, or none
            return new AirflowApiException(Failure.BAD_RESPONSE, AirflowSettings.API_VERSION, format(
                    "%s: %s: HTTP 404, no REST API %s here (check %s: v2 for Airflow 3, v1 for Airflow 2; and %s): %s", where, call,
                    settings.apiVersion().name().toLowerCase(Locale.ROOT), AirflowSettings.API_VERSION, AirflowSettings.URL, excerpt), cause);
        }
        if (code >= 500 || code == 429) {
            return new AirflowApiException(Failure.SERVER_ERROR, AirflowSettings.URL, format(
                    "%s: %s: HTTP %s from the server: %s", where, call, code, excerpt), cause);
        }
        return new AirflowApiException(Failure.BAD_RESPONSE, AirflowSettings.API_VERSION, format(
                "%s: %s: unexpected HTTP %s (check %s): %s", where, call, code, AirflowSettings.API_VERSION, excerpt), cause);
    }

    /** A call on one DAG's address; {@code ~}, every DAG, names none. */
    private static boolean namesDagOrRun(String call) {
        return call.contains("/dags/") && !call.contains("/dags/~/");
    }

    /**
     * Whether a 404's body is Airflow's own answer that the DAG or run is unknown, as the real Airflow
     * answers it. Airflow 3: a JSON object whose {@code detail} names the object
     * (<code>{"detail":"The Dag with ID: `x` was not found"}</code>), where a route that no handler serves
     * answers {@code {"error":"API route not found"}} (or, for /api/v1, that it was removed) and the web
     * framework's default is {@code {"detail":"Not Found"}}. Airflow 2: a problem document of Airflow's
     * error type {@code .../Errors/NotFound}, where an unknown route's is {@code about:blank}. Anything else
     * (a proxy's HTML, an empty body) is not Airflow's REST API.
     */
    private static boolean isAirflowsNotFound(AirflowApiVersion apiVersion, String body) {
        if (body == null || body.isBlank()) {
            return false;
        }
        JsonNode answer;
        try {
            answer = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return false;
        }
        return switch (apiVersion) {
            case V1 -> answer.path("type").asText("").endsWith("/Errors/NotFound");
            case V2 -> answer.path("detail").isTextual() && !answer.path("detail").asText().isBlank()
                    && !answer.path("detail").asText().strip().equalsIgnoreCase("Not Found");
        };
    }

    private static String describe(Throwable cause) {
        if (cause == null) {
            return "no cause given";
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
