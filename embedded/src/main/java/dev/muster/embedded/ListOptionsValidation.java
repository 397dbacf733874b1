package dev.muster.embedded;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The checks kube-apiserver makes of a list's or a watch's options before it answers, with its
 * answer: 422 Invalid for {@code ListOptions.meta.k8s.io}, one cause per broken rule. A watch list
 * ({@code sendInitialEvents}) needs {@code resourceVersionMatch=NotOlderThan}; a list may not ask for
 * initial events; {@code resourceVersionMatch} needs a version, goes with no continue token, and is one
 * of the values each side knows. Without these checks a client that gets them wrong (an informer
 * configured by hand) is answered here and refused by a real cluster.
 */
final class ListOptionsValidation {
    private static final String NOT_OLDER_THAN = "NotOlderThan";
    private static final String EXACT = "Exact";
    private static final String MATCH = "resourceVersionMatch";
    private static final String INITIAL_EVENTS = "sendInitialEvents";
    /** The one rule a list and a watch share. */
    private static final Cause WITH_CONTINUE = Cause.forbidden(MATCH, "resourceVersionMatch is forbidden when continue is provided");

    private ListOptionsValidation() {}

    /** The 422 answer when a list's or watch's options break a rule, or empty when they keep them all (or it is no list). */
    static Optional<MockResponse> check(String path, boolean watch) {
        if (!path.contains(MATCH) && !path.contains(INITIAL_EVENTS)) {
            return Optional.empty();
        }
        if (!watch && ResourcePath.parse(path).map(named -> !named.name().isEmpty()).orElse(true)) {
            // a read of one object has GetOptions, which have none of these
            return Optional.empty();
        }
        QueryParameters query = QueryParameters.of(path);
        if (!watch && query.flag("watch")) {
            // a watch on its way to the mock's handleWatch, checked there
            return Optional.empty();
        }
        String match = query.get(MATCH).orElse("");
        boolean initialEvents = query.get(INITIAL_EVENTS).isPresent();
        boolean continues = !query.get("continue").orElse("").isEmpty();
        List<Cause> causes = new ArrayList<>();
        if (watch) {
            if (initialEvents && !match.equals(NOT_OLDER_THAN)) {
                causes.add(Cause.forbidden(MATCH, "sendInitialEvents requires setting resourceVersionMatch to " + NOT_OLDER_THAN));
            }
            if (!match.isEmpty()) {
                if (!initialEvents) {
                    causes.add(Cause.forbidden(MATCH, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
                }
                if (!match.equals(NOT_OLDER_THAN)) {
                    causes.add(Cause.notSupported(MATCH, match, List.of(NOT_OLDER_THAN)));
                }
                if (continues) {
                    causes.add(WITH_CONTINUE);
                }
            }
        } else {
            String version = query.get("resourceVersion").orElse("");
            if (!match.isEmpty()) {
                if (version.isEmpty()) {
                    causes.add(Cause.forbidden(MATCH, "resourceVersionMatch is forbidden unless resourceVersion is provided"));
                }
                if (continues) {
                    causes.add(WITH_CONTINUE);
                }
                if (!match.equals(EXACT) && !match.equals(NOT_OLDER_THAN)) {
                    causes.add(Cause.notSupported(MATCH, match, List.of(EXACT, NOT_OLDER_THAN, "")));
                }
                if (match.equals(EXACT) && version.equals("0")) {
                    causes.add(Cause.forbidden(MATCH, "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
                }
            }
            if (initialEvents) {
                causes.add(Cause.forbidden(INITIAL_EVENTS, "sendInitialEvents is forbidden for list"));
            }
        }
        return causes.isEmpty() ? Optional.empty() : Optional.of(invalid(causes));
    }

    private static MockResponse invalid(List<Cause> causes) {
        ObjectNode details = JsonNodeFactory.instance.objectNode().put("group", "meta.k8s.io").put("kind", "ListOptions");
        causes.forEach(cause -> details.withArray("causes").addObject()
                .put("reason", cause.reason()).put("message", cause.body()).put("field", cause.field()));
        String errors = causes.size() == 1 ? causes.get(0).error()
                : causes.stream().map(Cause::error).collect(Collectors.joining(", ", "[", "]"));
        return Statuses.invalid("ListOptions.meta.k8s.io \"\" is invalid: " + errors, details);
    }

    /** One broken rule, as apimachinery's field error words it: its field, its type and what it says. */
    private record Cause(String field, String reason, String body) {
        static Cause forbidden(String field, String detail) {
            return new Cause(field, "FieldValueForbidden", "Forbidden: " + detail);
        }

        static Cause notSupported(String field, String value, List<String> supported) {
            String values = supported.stream().map(text -> "\"" + text + "\"").collect(Collectors.joining(", "));
            return new Cause(field, "FieldValueNotSupported", "Unsupported value: \"" + value + "\": supported values: " + values);
        }

        String error() {
            return field + ": " + body;
        }
    }
}
