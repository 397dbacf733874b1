package dev.muster.bridge.airflow.api;

import static java.lang.String.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.muster.bridge.airflow.api.AirflowApiException.Failure;
import java.net.http.HttpTimeoutException;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * Turns what the generated clients throw (one {@code ApiException} class per generated package, so
 * taken apart into its code, cause and body) into an {@link AirflowApiException} naming the setting. A 404
 * is an unknown DAG or run only where the address names one: on the version or the token it means that
 * the address serves no such API version.
 */
final class ApiFailures {
    private static final int BODY_EXCERPT = 200;

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
        if (code == 404 && !namesDagOrRun(call)) {
            // the version or the token: no DAG or run in the address, so the address serves another API, or none
            return new AirflowApiException(Failure.BAD_RESPONSE, AirflowSettings.API_VERSION, format(
                    "%s: %s: HTTP 404, no REST API %s here (check %s: v2 for Airflow 3, v1 for Airflow 2; and %s): %s", where, call,
                    settings.apiVersion().name().toLowerCase(Locale.ROOT), AirflowSettings.API_VERSION, AirflowSettings.URL, excerpt), cause);
        }
        if (code == 404) {
            return new AirflowApiException(Failure.NOT_FOUND, AirflowSettings.API_VERSION, format(
                    "%s: %s: HTTP 404 (an unknown DAG or run, or not API %s: check %s): %s", where, call,
                    settings.apiVersion(), AirflowSettings.API_VERSION, excerpt), cause);
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

    private static String describe(Throwable cause) {
        if (cause == null) {
            return "no cause given";
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
