package dev.muster.runtime.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.runtime.TestingClock;
import dev.muster.runtime.kubernetes.TestingApiServer;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The probe asks only after a silence, and its answer, or the lack of one, reaches the reachability. */
class IdleProbeTest {
    private static final Duration QUIET = Duration.ofSeconds(5);

    private final TestingApiServer server = new TestingApiServer();
    private final TestingClock clock = new TestingClock();
    private final ApiServerReachability reachability = new ApiServerReachability("test", clock);
    private final IdleProbe probe = new IdleProbe(server.client(), reachability, QUIET, clock);

    @AfterEach
    void stop() {
        probe.close();
        server.close();
    }

    @Test
    void aServerHeardFromLatelyIsNotAsked() {
        // given: an answer 4 s ago
        reachability.answered();
        clock.jump(Duration.ofSeconds(4));

        // when
        probe.probeIfQuiet();

        // then
        assertThat(server.requests("GET", "/version")).isZero();
        assertThat(reachability.reachable()).isTrue();
    }

    @Test
    void aSilentServerIsAskedAndAnOutageAndItsEndAreTold() {
        // given: nothing heard for 6 s, and the server answering 503
        reachability.answered();
        clock.jump(Duration.ofSeconds(6));
        server.fail("/version", 503);

        // when
        probe.probeIfQuiet();

        // then: the outage is told
        assertThat(server.requests("GET", "/version")).isEqualTo(1);
        assertThat(reachability.reachable()).isFalse();
        assertThat(reachability.outages()).isEqualTo(1);

        // when: the server answers again; a server taken to be down is asked at once, without a silence
        server.clearFaults();
        probe.probeIfQuiet();

        // then
        assertThat(server.requests("GET", "/version")).isEqualTo(2);
        assertThat(reachability.reachable()).isTrue();
        assertThat(reachability.outages()).isEqualTo(1);
    }

    @Test
    void aStartedProbeAsksOnItsOwnAfterASilence() {
        // given: a probe every 5 s of the real clock would make this test slow; one of 100 ms on a silent server
        ApiServerReachability silent = new ApiServerReachability("test", Clock.systemUTC());
        try (IdleProbe running = new IdleProbe(server.client(), silent, Duration.ofMillis(100), Clock.systemUTC())) {
            server.fail("/version", 503);

            // when
            running.start();

            // then
            await().atMost(Duration.ofSeconds(10)).until(() -> silent.outages() == 1);
        }
    }
}
