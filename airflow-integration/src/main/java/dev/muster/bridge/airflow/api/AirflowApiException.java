package dev.muster.bridge.airflow.api;

import static java.util.Objects.requireNonNull;

/**
 * A call to Airflow's REST API that failed: how ({@link Failure}), and which setting an operator should
 * look at. The message says both, with the address and the HTTP status or cause.
 */
public final class AirflowApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** How a call failed; only some are worth trying again. */
    public enum Failure {
        /** no connection (refused, unknown host, TLS handshake) */
        UNREACHABLE(true),
        /** no answer within the request timeout */
        TIMEOUT(true),
        /** 5xx or 429 */
        SERVER_ERROR(true),
        /** 401 or 403: the credentials or their permissions */
        UNAUTHORIZED(false),
        /** 404 on a DAG's or run's address, answered by Airflow: no such DAG or run */
        NOT_FOUND(false),
        /**
         * an answer that is not what the configured API version returns: a 404 on the version or the token,
         * or one on a DAG's address that is not Airflow's answer about the DAG, too
         */
        BAD_RESPONSE(false);

        private final boolean retryable;

        Failure(boolean retryable) {
            this.retryable = retryable;
        }

        public boolean retryable() {
            return retryable;
        }
    }

    private final Failure failure;
    private final String setting;

    public AirflowApiException(Failure failure, String setting, String message, Throwable cause) {
        super(message, cause);
        this.failure = requireNonNull(failure, "failure is null");
        this.setting = requireNonNull(setting, "setting is null");
    }

    public Failure failure() {
        return failure;
    }

    /** The setting to check first ({@code airflow.url}, {@code airflow.password}, ...). */
    public String setting() {
        return setting;
    }
}
