package dev.muster.embedded;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code Status} answers as kube-apiserver writes them ({@code k8s.io/apimachinery/pkg/api/errors}):
 * the reason and code, a message that names the resource and the object, and the details clients
 * read ({@code kubectl} prints the message; client libraries test the reason).
 */
final class Statuses {
    private Statuses() {}

    /** {@code errors.NewNotFound}: {@code pods "x" not found}. */
    static MockResponse notFound(ResourcePath path) {
        return failure(404, "NotFound", path.qualifiedResource() + " \"" + path.name() + "\" not found", details(path));
    }

    /** {@code errors.NewAlreadyExists}: {@code pods "x" already exists}. */
    static MockResponse alreadyExists(ResourcePath path, String name) {
        ResourcePath named = new ResourcePath(path.group(), path.version(), path.namespace(), path.plural(), name, "");
        return failure(409, "AlreadyExists", path.qualifiedResource() + " \"" + name + "\" already exists", details(named));
    }

    /** {@code errors.NewConflict}: {@code Operation cannot be fulfilled on pods "x": DETAIL}. */
    static MockResponse conflict(String qualifiedResource, ResourcePath path, String detail) {
        ObjectNode details = details(path).put("kind", qualifiedResource.contains(".")
                ? qualifiedResource.substring(0, qualifiedResource.indexOf('.')) : qualifiedResource);
        return failure(409, "Conflict", "Operation cannot be fulfilled on " + qualifiedResource + " \"" + path.name() + "\": " + detail,
                details);
    }

    /** {@code errors.NewBadRequest}. */
    static MockResponse badRequest(String message) {
        return failure(400, "BadRequest", message, null);
    }

    /** {@code errors.NewUnsupportedMediaType}-like: a body in an encoding the server cannot read. */
    static MockResponse unsupportedMediaType(String message) {
        return failure(415, "UnsupportedMediaType", message, null);
    }

    /**
     * A JSON patch that does not apply to the object: {@code errors.NewGenericServerResponse(422, ...)},
     * reason Invalid, the generic message and empty details, as kube-apiserver's patch handler answers.
     */
    static MockResponse invalidPatch() {
        return failure(422, "Invalid", "the server rejected our request due to an error in our request",
                JsonNodeFactory.instance.objectNode());
    }

    /** {@code errors.NewInternalError}. */
    static MockResponse internalError(String cause) {
        return failure(500, "InternalError", "Internal error occurred: " + cause, null);
    }

    /** A PATCH whose content type the kind is not served with: strategic merge patch of a custom resource. */
    static MockResponse unsupportedMediaType() {
        return failure(415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media types include: "
                + "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml", null);
    }

    /** A server-side apply that would change fields other managers own: one {@code FieldManagerConflict} cause per field. */
    static MockResponse applyConflict(String message, List<ObjectNode> causes) {
        ObjectNode details = JsonNodeFactory.instance.objectNode();
        details.putArray("causes").addAll(causes);
        return failure(409, "Conflict", message, details);
    }

    /** A failure kube-apiserver gives no reason for (a strategic merge patch item without its merge key: 500). */
    static MockResponse withoutReason(int code, String message) {
        return failure(code, "", message, null);
    }

    /** kube-apiserver's not-found handler, for a path it does not serve. */
    static MockResponse unserved() {
        return failure(404, "NotFound", "the server could not find the requested resource", null);
    }

    /**
     * {@code errors.NewInvalid} for an object without a name: {@code Pod "" is invalid: metadata.name:
     * Required value: name or generateName is required}, the cause in the details.
     */
    static MockResponse nameRequired(String kind, String group) {
        return invalidField(kind, group, "", "metadata.name", "FieldValueRequired", List.of("Required value: name or generateName is required"));
    }

    /**
     * {@code errors.NewInvalid} for causes of one field: {@code Kind[.group] "name" is invalid: FIELD:
     * CAUSE} (several causes in brackets), each cause in the details with its reason.
     */
    static MockResponse invalidField(String kind, String group, String name, String field, String reason, List<String> causes) {
        ObjectNode details = JsonNodeFactory.instance.objectNode();
        if (!name.isEmpty()) {
            details.put("name", name);
        }
        if (!group.isEmpty()) {
            details.put("group", group);
        }
        details.put("kind", kind);
        List<String> listed = new ArrayList<>();
        for (String cause : causes) {
            details.withArray("causes").addObject().put("reason", reason).put("message", cause).put("field", field);
            listed.add(field + ": " + cause);
        }
        String qualifiedKind = group.isEmpty() ? kind : kind + "." + group;
        String message = listed.size() == 1 ? listed.get(0) : "[" + String.join(", ", listed) + "]";
        return failure(422, "Invalid", qualifiedKind + " " + quoted(name) + " is invalid: " + message, details);
    }

    /**
     * What a DELETE answers for a kind whose storage does not return the deleted object: {@code Success},
     * the object named in the details.
     */
    static MockResponse deleted(ResourcePath path, String uid) {
        ObjectNode status = skeleton("Success");
        status.set("details", details(path).put("uid", uid));
        return new MockResponse().setResponseCode(200).setBody(status.toString()).setHeader("Content-Type", "application/json");
    }

    /** Go's {@code %q} of a name, as kube-apiserver's messages quote it. */
    static String quoted(String name) {
        return "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** {@code errors.NewInvalid}: 422 Invalid with the causes in the details. */
    static MockResponse invalid(String message, ObjectNode details) {
        return failure(422, "Invalid", message, details);
    }

    private static ObjectNode details(ResourcePath path) {
        ObjectNode details = JsonNodeFactory.instance.objectNode().put("name", path.name());
        if (!path.group().isEmpty()) {
            details.put("group", path.group());
        }
        return details.put("kind", path.plural());
    }

    private static ObjectNode skeleton(String outcome) {
        ObjectNode status = JsonNodeFactory.instance.objectNode().put("kind", "Status").put("apiVersion", "v1");
        status.putObject("metadata");
        return status.put("status", outcome);
    }

    /** A {@code Failure} with this code, reason (none when empty) and message, no details. */
    static MockResponse failure(int code, String reason, String message) {
        return failure(code, reason, message, null);
    }

    private static MockResponse failure(int code, String reason, String message, ObjectNode details) {
        ObjectNode status = skeleton("Failure").put("message", message);
        if (!reason.isEmpty()) {
            status.put("reason", reason);
        }
        if (details != null) {
            status.set("details", details);
        }
        status.put("code", code);
        return new MockResponse().setResponseCode(code).setBody(status.toString()).setHeader("Content-Type", "application/json");
    }
}
