package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How a boolean query parameter is read, side by side with the real kube-apiserver: {@code watch}
 * spelled every way a client or a hand-typed URL spells it turns a list into a watch, or does not.
 * Each watch lasts a second ({@code timeoutSeconds=1}), so the answer is a list or the watch's events.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class BooleanParameterRealApiServerTest {
    private static final List<String> SPELLINGS = List.of("", "0", "1", "false", "False", "FALSE", "fAlSe", "true", "TRUE", "t", "f",
            "no", "yes", "off");
    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void everySpellingOfWatchIsReadAsTheRealServerReadsIt(RealControlPlane real) {
        Map<String, String> embedded = answers(servers.embedded());
        Map<String, String> kubeApiServer = answers(TestingServers.real(real));

        assertThat(embedded).isEqualTo(kubeApiServer);
        // what the real server says, so the comparison cannot pass with both sides reading nothing
        assertThat(kubeApiServer).containsEntry("0", "list").containsEntry("fAlSe", "list").containsEntry("", "watch")
                .containsEntry("no", "watch");
    }

    private static Map<String, String> answers(Side side) {
        Map<String, String> answers = new LinkedHashMap<>();
        for (String spelling : SPELLINGS) {
            String body = side.client().raw("/api/v1/namespaces/default/configmaps?timeoutSeconds=1&watch=" + spelling);
            answers.put(spelling, body != null && body.contains("\"kind\":\"ConfigMapList\"") ? "list" : "watch");
        }
        return answers;
    }
}
