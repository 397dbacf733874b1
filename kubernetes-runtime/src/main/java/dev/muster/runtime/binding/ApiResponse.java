package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

/**
 * What the API server answered to one request, or why no answer came.
 *
 * @param code the HTTP status, or {@link #NO_ANSWER} when the request failed before an answer (refused, reset, timed out)
 * @param body the answer's body, or the failure's message
 */
record ApiResponse(int code, String body) {
    static final int NO_ANSWER = 0;
    /** Not sent: the {@link WriteFence} was closed (the lease lost, or its time run out). */
    static final int FENCED = -1;

    ApiResponse {
        requireNonNull(body, "body is null");
    }

    static ApiResponse fenced() {
        return new ApiResponse(FENCED, "not sent: this replica no longer holds the lease");
    }

    static ApiResponse noAnswer(Throwable failure) {
        return new ApiResponse(NO_ANSWER, String.valueOf(failure.getMessage()));
    }

    /** How a caller should treat this answer: Kubernetes errors are classified here, nowhere else. */
    Outcome outcome() {
        if (code >= 200 && code < 300) {
            return Outcome.DONE;
        }
        return switch (code) {
            case FENCED -> Outcome.FENCED;
            case 409 -> Outcome.CONFLICT;
            case 404 -> Outcome.GONE;
            case NO_ANSWER, 408, 429, 500, 502, 503, 504 -> Outcome.RETRY;
            default -> Outcome.REJECTED;
        };
    }

    /** One line for logs and reports: the code and the server's message. */
    String describe() {
        return switch (code) {
            case NO_ANSWER -> "no answer: " + body;
            case FENCED -> body;
            default -> "HTTP " + code + ": " + body;
        };
    }

    /** How to treat an answer. */
    enum Outcome {
        /** The request took effect. */
        DONE,
        /** 409: stale or already done (a pod already bound); the informer has or will have the truth. */
        CONFLICT,
        /** 404: the object is gone. */
        GONE,
        /** 5xx, 408, 429 or no answer: worth trying again after a pause. */
        RETRY,
        /** Any other 4xx: the request itself is wrong (forbidden, invalid); trying again will not help. */
        REJECTED,
        /** Not sent, as the lease is lost: the leader that holds it now decides. */
        FENCED
    }
}
