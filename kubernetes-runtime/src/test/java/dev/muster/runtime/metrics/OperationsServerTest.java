package dev.muster.runtime.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.runtime.SettableClock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Liveness and readiness as the probes see them. */
class OperationsServerTest {
    private final SettableClock clock = new SettableClock(Instant.parse("2025-01-01T00:00:00Z"));
    private final Health health = new Health(clock, Duration.ofSeconds(30));
    private final PrometheusRegistry registry = registry(health);
    private final OperationsServer server = start();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void notReadyUntilTheInformersHaveSyncedButLiveFromTheStart() throws Exception {
        assertThat(status("/healthz")).isEqualTo(200);
        assertThat(status("/readyz")).isEqualTo(503);

        health.informersSynced();

        assertThat(status("/readyz")).isEqualTo(200);
    }

    @Test
    void aStandbyReplicaIsReadyAndSaysSo() throws Exception {
        health.informersSynced();

        HttpResponse<String> standby = Scrape.get(server.address(), "/readyz");
        health.leading(true);
        HttpResponse<String> leading = Scrape.get(server.address(), "/readyz");

        assertThat(standby.statusCode()).isEqualTo(200);
        assertThat(standby.body()).isEqualTo("ok: standby\n");
        assertThat(leading.statusCode()).isEqualTo(200);
        assertThat(leading.body()).isEqualTo("ok: leading\n");
    }

    @Test
    void aLeaderWhoseLoopStallsIsNotLive() throws Exception {
        health.informersSynced();
        health.leading(true);
        clock.advance(Duration.ofSeconds(29));
        assertThat(status("/healthz")).isEqualTo(200);

        clock.advance(Duration.ofSeconds(2));

        HttpResponse<String> stalled = Scrape.get(server.address(), "/healthz");
        assertThat(stalled.statusCode()).isEqualTo(500);
        assertThat(stalled.body()).startsWith("scheduling loop stalled");
    }

    @Test
    void aStandbyIsLiveHoweverLongItWaits() throws Exception {
        health.informersSynced();

        clock.advance(Duration.ofHours(1));

        assertThat(status("/healthz")).isEqualTo(200);
    }

    @Test
    void unknownPathsAndMethodsAreRefused() throws Exception {
        // /metrics and what is below it are the Prometheus client's (the JDK server matches contexts by prefix)
        assertThat(status("/nothing")).isEqualTo(404);
        assertThat(status("/")).isEqualTo(404);
        assertThat(status("/healthzx")).isEqualTo(404);
        assertThat(Scrape.send(server.address(), "/readyz", "POST").statusCode()).isEqualTo(405);
    }

    @Test
    void theLeaderGaugeFollowsTheLease() throws Exception {
        health.leading(true);

        Scrape scrape = Scrape.parse(Scrape.get(server.address(), "/metrics").body());

        assertThat(scrape.value("muster_leader")).contains(1.0);
        assertThat(scrape.value("muster_informers_synced")).contains(0.0);
        assertThat(scrape.value("muster_pods_bound_total")).contains(0.0);
    }

    private int status(String path) throws Exception {
        return Scrape.get(server.address(), path).statusCode();
    }

    private static PrometheusRegistry registry(Health health) {
        PrometheusRegistry registry = new PrometheusRegistry();
        new SchedulerMetrics(registry);
        health.register(registry);
        return registry;
    }

    private OperationsServer start() {
        try {
            return OperationsServer.start(new InetSocketAddress("127.0.0.1", 0), registry, health);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
