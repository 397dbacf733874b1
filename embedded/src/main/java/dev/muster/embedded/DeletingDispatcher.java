package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Deletes as kube-apiserver and the controllers behind it do: deleting an object deletes, transitively,
 * the objects whose {@code ownerReferences} name its uid, as the garbage collector of a real cluster
 * does in the background (here before the DELETE is answered); deleting a namespace deletes what is in
 * it, as the namespace controller does; a collection delete with selectors deletes what a list with
 * them selects.
 */
abstract class DeletingDispatcher extends PatchingDispatcher {
    private static final Pattern NAMESPACE = Pattern.compile("^/api/v1/namespaces/([^/?]+)(\\?.*)?$");

    DeletingDispatcher(List<CustomResourceDefinitionContext> crds, ObjectMapper json, TypeSchemas schemas, Clock clock) {
        super(crds, json, schemas, clock);
    }

    /** Deletes what the path names, then every object that names a deleted one as its owner, and so on. */
    final synchronized MockResponse deleteWithDependents(String path) {
        MockResponse response = path.contains("?") && !Selection.of(path, kinds()).isEmpty() ? deleteSelected(path) : handleDelete(path);
        if (response.code() != 200) {
            return response;
        }
        String body = response.getBody().readUtf8();
        // reading the body consumed it
        response.setBody(body);
        Deque<JsonNode> deleted = new ArrayDeque<>();
        JsonNode answer = readTree(body);
        if (answer.has("items")) {
            answer.path("items").forEach(deleted::add);
        } else {
            deleted.add(answer);
        }
        Matcher namespace = NAMESPACE.matcher(path);
        if (namespace.matches()) {
            // what the namespace controller does once a namespace is deleted: every object in it goes too
            deleted.addAll(deleteNamespaceContents(namespace.group(1)));
        }
        while (!deleted.isEmpty()) {
            String uid = deleted.poll().path("metadata").path("uid").asText("");
            if (uid.isEmpty()) {
                continue;
            }
            for (String dependent : owners().dependentsOf(uid)) {
                MockResponse collected = handleDelete(dependent);
                if (collected.code() == 200) {
                    deleted.add(readTree(collected.getBody().readUtf8()));
                }
            }
        }
        return response;
    }

    private List<JsonNode> deleteNamespaceContents(String namespace) {
        List<JsonNode> deleted = new ArrayList<>();
        for (Map.Entry<AttributeSet, String> entry : new ArrayList<>(map.entrySet())) {
            Attribute plural = entry.getKey().getAttribute(KubernetesAttributesExtractor.PLURAL);
            Attribute inNamespace = entry.getKey().getAttribute(KubernetesAttributesExtractor.NAMESPACE);
            if (plural == null || inNamespace == null || !namespace.equals(String.valueOf(inNamespace.getValues().get(0)))) {
                continue;
            }
            JsonNode object = readTree(entry.getValue());
            MockResponse answer = handleDelete(OwnerIndex.path(object.path("apiVersion").asText(), String.valueOf(plural.getValues().get(0)),
                    namespace, object.path("metadata").path("name").asText()));
            if (answer.code() == 200) {
                deleted.add(readTree(answer.getBody().readUtf8()));
            }
        }
        return deleted;
    }

    /**
     * A collection delete with selectors: what a list with those selectors answers, each deleted on its
     * own (the mock's collection delete matched labels its own way, {@code in} matching everything).
     */
    private MockResponse deleteSelected(String path) {
        MockResponse listed = handleGet(path);
        if (listed.code() != 200) {
            return listed;
        }
        String bare = path.substring(0, path.indexOf('?'));
        String plural = bare.substring(bare.lastIndexOf('/') + 1);
        ArrayNode deleted = JsonNodeFactory.instance.arrayNode();
        for (JsonNode item : readTree(listed.getBody().readUtf8()).path("items")) {
            JsonNode metadata = item.path("metadata");
            MockResponse answer = handleDelete(OwnerIndex.path(item.path("apiVersion").asText(), plural, metadata.path("namespace").asText(""),
                    metadata.path("name").asText()));
            if (answer.code() == 200) {
                deleted.add(readTree(answer.getBody().readUtf8()));
            }
        }
        ObjectNode list = JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "List");
        list.putObject("metadata");
        list.set("items", deleted);
        return new MockResponse().setResponseCode(200).setBody(list.toString());
    }
}
