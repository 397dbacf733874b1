package dev.muster.embedded;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A list's and a watch's options that kube-apiserver refuses, side by side with the real one: the
 * same 422 Invalid, message and causes, for each rule of {@code resourceVersionMatch} and
 * {@code sendInitialEvents}; and the watch list client-go sends is still served.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ListOptionsRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIG_MAPS = "api/v1/namespaces/default/configmaps?timeoutSeconds=1&";
    private static final List<String> QUERIES = List.of(
            "sendInitialEvents=true",
            "resourceVersionMatch=NotOlderThan",
            "resourceVersion=0&resourceVersionMatch=Exact",
            "resourceVersion=1&resourceVersionMatch=Newest",
            "resourceVersion=1&resourceVersionMatch=NotOlderThan&continue=abc",
            "resourceVersion=1&resourceVersionMatch=NotOlderThan",
            "watch=true&sendInitialEvents=true",
            "watch=true&sendInitialEvents=true&resourceVersionMatch=Exact",
            "watch=true&resourceVersionMatch=NotOlderThan",
            "watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true");
    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void refusedOptionsGetTheRealServersAnswer(RealControlPlane real) throws Exception {
        Map<String, String> embedded = answers(servers.embedded());
        Map<String, String> kubeApiServer = answers(TestingServers.real(real));

        assertThat(embedded).isEqualTo(kubeApiServer);
        // the real server's answers, so the comparison cannot pass with both sides accepting everything
        assertThat(kubeApiServer.get("sendInitialEvents=true")).startsWith("422 ").contains("sendInitialEvents is forbidden for list");
        assertThat(kubeApiServer.get("resourceVersion=1&resourceVersionMatch=NotOlderThan")).isEqualTo("200");
        assertThat(kubeApiServer.get(QUERIES.get(QUERIES.size() - 1))).isEqualTo("200");
    }

    /** The Status without its (empty) metadata, its keys in order, so two servers' orders do not differ. */
    private static String status(String body) throws Exception {
        Map<?, ?> status = JSON.readValue(body, Map.class);
        status.remove("metadata");
        return JSON.writer().with(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).writeValueAsString(status);
    }

    /** Per query: the status code, and for a failure the Status with its message and causes. */
    private static Map<String, String> answers(Side side) throws Exception {
        HttpClient http = side.client().getHttpClient();
        Map<String, String> answers = new LinkedHashMap<>();
        for (String query : QUERIES) {
            String url = side.client().getMasterUrl().toURI().resolve("/" + CONFIG_MAPS + query).toString();
            HttpResponse<String> response = http.sendAsync(http.newHttpRequestBuilder().uri(url).build(), String.class).get(30, SECONDS);
            answers.put(query, response.code() < 300 ? String.valueOf(response.code())
                    : response.code() + " " + status(response.body()));
        }
        return answers;
    }
}
