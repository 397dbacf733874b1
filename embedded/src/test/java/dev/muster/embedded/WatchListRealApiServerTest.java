package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A watch list ({@code sendInitialEvents=true}), side by side with a real kube-apiserver: client-go
 * v0.35 and later informers open their watch this way instead of listing, and wait for the bookmark
 * that ends the initial state; a server that never sends it leaves them unsynced for ever (the real
 * training operator v1.9.4 did on {@code muster up}).
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class WatchListRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WATCH_LIST = "/api/v1/namespaces/watchlist/configmaps?watch=1&sendInitialEvents=true"
            + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=test%3Dwatchlist&timeoutSeconds=3";

    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void theStoredStateIsStreamedThenABookmarkMarksItsEnd(RealControlPlane real) throws InterruptedException {
        Map<Side, List<String>> answers = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            side.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("watchlist").endMetadata().build())
                    .create();
            for (String name : List.of("b", "a")) {
                side.client().configMaps().inNamespace("watchlist").resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                        .addToLabels("test", "watchlist").endMetadata().addToData("k", name).build()).create();
            }

            TestingKubectl.Result watch = TestingKubectl.run(side.kubeconfig(), "get", "--raw", WATCH_LIST);

            assertThat(watch.exitCode()).as("%s: %s", side, watch.output()).isZero();
            answers.put(side, untilInitialEventsEnd(side, watch.output()));
        }

        assertThat(answers.get(servers.embedded())).containsExactly("ADDED ConfigMap a", "ADDED ConfigMap b", "BOOKMARK initial-events-end");
        assertThat(answers.values()).allSatisfy(events -> assertThat(events).isEqualTo(answers.get(servers.embedded())));
    }

    /**
     * The events up to the bookmark that ends the initial state, the ADDED ones in name order (each
     * server streams its state in its own order); checks that the bookmark's version is after each object's.
     */
    private static List<String> untilInitialEventsEnd(Side side, String output) {
        List<String> added = new ArrayList<>();
        long newest = 0;
        for (String line : output.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode event = read(line);
            JsonNode metadata = event.path("object").path("metadata");
            long version = Long.parseLong(metadata.path("resourceVersion").asText("0"));
            if ("BOOKMARK".equals(event.path("type").asText())
                    && "true".equals(metadata.path("annotations").path("k8s.io/initial-events-end").asText())) {
                assertThat(version).as("%s: the bookmark's version is after the state it ends", side).isGreaterThanOrEqualTo(newest);
                List<String> events = new ArrayList<>(added.stream().sorted().toList());
                events.add("BOOKMARK initial-events-end");
                return events;
            }
            newest = Math.max(newest, version);
            added.add(event.path("type").asText() + " " + event.path("object").path("kind").asText() + " " + metadata.path("name").asText());
        }
        added.add("no initial-events-end bookmark");
        return added;
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
