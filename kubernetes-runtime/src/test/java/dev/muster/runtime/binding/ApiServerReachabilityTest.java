package dev.muster.runtime.binding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ApiServerReachabilityTest {
    private final ApiServerReachability reachability =
            new ApiServerReachability("https://127.0.0.1:6443", Clock.fixed(Instant.parse("2026-12-01T20:00:00Z"), ZoneOffset.UTC));

    @Test
    void anOutageMetByManyRequestsIsOneOutageAndTheFirstAnswerEndsIt() {
        // when: the writers and the informers all meet the same outage
        reachability.unanswered("POST /api/v1/namespaces/default/pods/a-0/binding", "no answer: Connection refused");
        reachability.unanswered("list and watch pods", "Connection refused");
        reachability.unanswered("PATCH /apis/scheduling.volcano.sh/v1beta1/namespaces/default/podgroups/a", "HTTP 503: unavailable");

        // then
        assertThat(reachability.outages()).isEqualTo(1);
        assertThat(reachability.reachable()).isFalse();

        // when: any answer
        reachability.answered();
        reachability.answered();

        // then: it is over, and the next failure is a new outage
        assertThat(reachability.reachable()).isTrue();
        reachability.unanswered("list and watch nodes", "Connection reset");
        assertThat(reachability.outages()).isEqualTo(2);
    }

    @Test
    void aRefusalIsAnAnswerAndOnlyNoAnswerOrUnavailableIsAnOutage() {
        assertThat(ApiServerReachability.unavailable(ApiResponse.NO_ANSWER)).isTrue();
        assertThat(ApiServerReachability.unavailable(503)).isTrue();
        assertThat(ApiServerReachability.unavailable(504)).isTrue();
        assertThat(ApiServerReachability.unavailable(403)).isFalse();
        assertThat(ApiServerReachability.unavailable(409)).isFalse();
        assertThat(ApiServerReachability.unavailable(500)).isFalse();
        assertThat(ApiServerReachability.unavailable(ApiResponse.FENCED)).isFalse();
    }
}
