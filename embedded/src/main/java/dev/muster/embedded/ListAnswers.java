package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/** What the server does to the mock's list answers: the selection applied, and the list's kind named. */
final class ListAnswers {
    /** How the mock's lists begin, and {@link #selected} lists, before {@link #typed} names their kind. */
    private static final List<String> MOCK_LIST_HEADS = List.of("{\"apiVersion\":\"v1\",\"kind\":\"List\",");

    private final ResourceKinds kinds;
    private final ObjectMapper json;

    ListAnswers(ResourceKinds kinds, ObjectMapper json) {
        this.kinds = requireNonNull(kinds, "kinds is null");
        this.json = requireNonNull(json, "json is null");
    }

    /**
     * A list answer with its kind's list kind ({@code PodList}, {@code PodGroupList}), as kube-apiserver
     * answers; the mock called every list {@code List}, which typed clients (kubectl describe) do not
     * decode as a list of their kind. The mock writes its list's head as a constant: replaced as text.
     */
    MockResponse typed(String path, MockResponse list) {
        Optional<ResourceKinds.Kind> kind = kinds.of(path);
        if (list.code() != 200 || kind.isEmpty() || list.getBody() == null) {
            return list;
        }
        String body = list.getBody().readUtf8();
        String head = "{\"apiVersion\":\"" + kind.get().apiVersion() + "\",\"kind\":\"" + kind.get().kind() + "List\",";
        for (String mockHead : MOCK_LIST_HEADS) {
            if (body.startsWith(mockHead)) {
                return list.setBody(head + body.substring(mockHead.length()));
            }
        }
        return list.setBody(body);
    }

    /** The items of a list answer that the selection selects; anything but a list is answered as it is. */
    MockResponse selected(MockResponse list, Selection selection) {
        if (list.code() != 200 || list.getWebSocketListener() != null) {
            return list;
        }
        JsonNode answer;
        try {
            answer = json.readTree(list.getBody().readUtf8());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (answer instanceof ObjectNode object && answer.path("items").isArray()) {
            JsonNode all = answer.path("items");
            ArrayNode items = object.putArray("items");
            all.forEach(item -> {
                if (selection.matches(item)) {
                    items.add(item);
                }
            });
        }
        return list.setBody(answer.toString());
    }
}
