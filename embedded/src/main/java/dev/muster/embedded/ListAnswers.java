package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** What the server does to the mock's list answers: the selection applied, and the list's kind named. */
final class ListAnswers {
    /** How the mock's lists begin, and {@link #selected} lists, before {@link #typed} names their kind. */
    private static final List<String> MOCK_LIST_HEADS = List.of("{\"apiVersion\":\"v1\",\"kind\":\"List\",");

    /** Storage keys compare as Go compares strings, byte by byte; names and namespaces are ASCII (DNS-1123). */
    private static final Comparator<JsonNode> STORAGE_ORDER = Comparator
            .comparing((JsonNode item) -> item.path("metadata").path("namespace").asText(""))
            .thenComparing(item -> item.path("metadata").path("name").asText(""));

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

    /** A list answer's items in kube-apiserver's order; anything but a list is answered as it is. */
    MockResponse ordered(MockResponse list) {
        return selected(list, Selection.EVERYTHING);
    }

    /**
     * The items of a list answer that the selection selects, in kube-apiserver's order: by namespace,
     * then name, as its storage keys ({@code /registry/pods/NAMESPACE/NAME}) sort. The mock answered in the
     * order objects were created, which a client that lists two servers sees as a difference (an
     * informer's first ADDED events). Anything but a list is answered as it is.
     */
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
            List<JsonNode> kept = new ArrayList<>();
            answer.path("items").forEach(item -> {
                if (selection.matches(item)) {
                    kept.add(item);
                }
            });
            kept.sort(STORAGE_ORDER);
            object.putArray("items").addAll(kept);
        }
        return list.setBody(answer.toString());
    }
}
