package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code authorization.k8s.io/v1} SelfSubjectAccessReviews and SubjectAccessReviews, which controllers
 * post to learn what they may do (Argo's workflow controller exits when the resource is not served).
 * The embedded server authorizes every request, so every review is allowed, and the answer says why,
 * as kube-apiserver's answers the review with the request and a {@code status}; nothing is stored.
 */
final class AccessReviews {
    private static final Pattern REVIEWS = Pattern.compile("/apis/authorization\\.k8s\\.io/v1/(self)?subjectaccessreviews");

    private AccessReviews() {}

    static boolean matches(String method, String barePath) {
        return "POST".equalsIgnoreCase(method) && REVIEWS.matcher(barePath).matches();
    }

    /** The review answered, or empty when the body is not a JSON object (a 400 then). */
    static Optional<String> answer(JsonNode review) {
        if (!(review instanceof ObjectNode object)) {
            return Optional.empty();
        }
        ObjectNode answered = object.deepCopy();
        answered.putObject("status").put("allowed", true).put("reason", "the embedded API server authorizes every request");
        return Optional.of(answered.toString());
    }
}
