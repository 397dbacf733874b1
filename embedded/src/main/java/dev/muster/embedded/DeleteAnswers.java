package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableSet;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a DELETE of one object answers, as kube-apiserver's generic store answers it: the deleted object
 * for the few kinds whose storage sets {@code ReturnDeletedObject}, and for every other kind (custom
 * resources included) a {@code Status} of {@code Success} naming the object, which the mock never sent.
 * The kinds were read off kube-apiserver v1.34.4 ({@code DeleteAnswerRealApiServerTest} deletes one of
 * sixteen kinds on each server); kinds not tried there answer as the generic store does by default.
 */
final class DeleteAnswers {
    /** The built-in resources (core API group) whose delete answers with the object. */
    private static final ImmutableSet<String> RETURN_DELETED_OBJECT = ImmutableSet.of("pods", "services", "serviceaccounts", "namespaces",
            "persistentvolumeclaims", "persistentvolumes");

    private DeleteAnswers() {}

    /** The answer to the DELETE of what {@code path} names, from the mock's answer {@code deleted}. */
    static MockResponse answer(String path, MockResponse deleted, Function<String, JsonNode> readTree) {
        Optional<ResourcePath> resource = ResourcePath.parse(path);
        boolean oneObject = resource.isPresent() && !resource.get().name().isEmpty() && resource.get().subresource().isEmpty();
        if (!oneObject || deleted.code() != 200 || deleted.getBody() == null
                || (resource.get().group().isEmpty() && RETURN_DELETED_OBJECT.contains(resource.get().plural()))) {
            return deleted;
        }
        JsonNode object = readTree.apply(deleted.getBody().readUtf8());
        return Statuses.deleted(resource.get(), object.path("metadata").path("uid").asText());
    }
}
