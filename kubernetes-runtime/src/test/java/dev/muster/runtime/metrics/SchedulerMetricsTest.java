package dev.muster.runtime.metrics;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static dev.muster.runtime.kubernetes.Manifests.node;
import static dev.muster.runtime.kubernetes.Manifests.pod;
import static dev.muster.runtime.kubernetes.Manifests.podGroup;
import static dev.muster.runtime.kubernetes.Manifests.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.LiveScheduler;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a scrape of /metrics shows after cycles against an API server. */
class SchedulerMetricsTest {
    private static final String RECLAIM = """
            actions: "enqueue, allocate, reclaim"
            tiers:
            - plugins: [{name: priority}, {name: gang}, {name: conformance}]
            - plugins: [{name: drf}, {name: predicates}, {name: proportion}]
            """;

    private final TestingApiServer server = new TestingApiServer();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void aScrapeAfterACycleCountsBindsAndShowsQueuesAndPendingGroups() throws Exception {
        // given
        ClusterObjects.create(server.client(), node("n1", "4", "16Gi") + queue("ml", "")
                + gang("train", 2, "ml", "1") + gang("huge", 2, "ml", "3"));
        PrometheusRegistry registry = new PrometheusRegistry();
        SchedulerMetrics metrics = new SchedulerMetrics(registry);
        Health health = new Health(Clock.systemUTC(), Duration.ofMinutes(1));
        health.register(registry);

        try (LiveScheduler scheduler = LiveScheduler.connect(server.client());
                OperationsServer operations = OperationsServer.start(new InetSocketAddress("127.0.0.1", 0), registry, health)) {
            // when
            metrics.accept(scheduler.runCycle());
            Scrape first = scrape(operations);

            // then
            assertThat(first.value("muster_cycles_total")).contains(1.0);
            assertThat(first.value("muster_pods_bound_total")).contains(2.0);
            assertThat(first.value("muster_pod_scheduling_latency_seconds_count")).contains(2.0);
            assertThat(first.value("muster_pod_scheduling_latency_seconds_bucket{le=\"+Inf\"}")).contains(2.0);
            assertThat(first.value("muster_cycle_duration_seconds_count")).contains(1.0);
            assertThat(first.value("muster_action_duration_seconds_count{action=\"allocate\"}")).contains(1.0);
            assertThat(first.value("muster_action_duration_seconds_count{action=\"enqueue\"}")).contains(1.0);
            assertThat(first.value("muster_queue_allocated{queue=\"ml\",resource=\"cpu\"}")).contains(2.0);
            assertThat(first.value("muster_queue_allocated{queue=\"ml\",resource=\"memory\"}")).contains(2.0 * 1024 * 1024 * 1024);
            assertThat(first.value("muster_queue_deserved{queue=\"ml\",resource=\"cpu\"}")).hasValueSatisfying(cpu ->
                    assertThat(cpu).isPositive());
            assertThat(first.value("muster_pending_podgroups{reason=\"NotEnqueued\"}").orElse(0.0)
                    + first.value("muster_pending_podgroups{reason=\"NotEnoughResources\"}").orElse(0.0)).isEqualTo(1.0);
            assertThat(first.value("muster_pending_podgroups{reason=\"Invalid\"}")).contains(0.0);
            assertThat(first.value("muster_leader")).contains(0.0);

            // when: another gang arrives
            ClusterObjects.create(server.client(), gang("more", 1, "ml", "1"));
            await().atMost(Duration.ofSeconds(5)).until(() ->
                    scheduler.cache().snapshot().cluster().jobs().keySet().stream().anyMatch(id -> id.name().equals("more")));
            metrics.accept(scheduler.runCycle());

            // then
            Scrape second = scrape(operations);
            assertThat(second.value("muster_cycles_total")).contains(2.0);
            assertThat(second.value("muster_pods_bound_total")).contains(3.0);
            assertThat(second.value("muster_queue_allocated{queue=\"ml\",resource=\"cpu\"}")).contains(3.0);
        }
    }

    @Test
    void aScrapeCountsEvictionsByQueueAndActionAndEachLiveJobsEvictionsAcrossCycles() throws Exception {
        // given: queue lender runs four pods on the only node; ml, of the same weight, is owed half of it
        StringBuilder loans = new StringBuilder(podGroup("loans", 1, "lender"));
        for (int index = 0; index < 4; index++) {
            loans.append(runningPod("loans-" + index, "loans"));
        }
        ClusterObjects.create(server.client(), node("n1", "4", "16Gi") + queue("lender", "") + queue("ml", "") + loans
                + gang("train", 1, "ml", "1"));
        PrometheusRegistry registry = new PrometheusRegistry();
        SchedulerMetrics metrics = new SchedulerMetrics(registry);
        Health health = new Health(Clock.systemUTC(), Duration.ofMinutes(1));
        health.register(registry);

        try (LiveScheduler scheduler = LiveScheduler.connect(server.client(), RECLAIM);
                OperationsServer operations = OperationsServer.start(new InetSocketAddress("127.0.0.1", 0), registry, health)) {
            // when: reclaim takes one loan back for train
            metrics.accept(scheduler.runCycle());

            // then
            Scrape first = scrape(operations);
            assertThat(first.value("muster_pods_evicted_total{action=\"reclaim\",queue=\"lender\"}")).contains(1.0);
            assertThat(first.value("muster_job_evictions_count")).contains(1.0);
            assertThat(first.value("muster_job_evictions_bucket{le=\"1.0\"}")).contains(1.0);
            assertThat(first.value("muster_job_evictions_max")).contains(1.0);

            // when: train runs, then tune arrives in ml and reclaim takes a second loan of the same job
            awaitPods(scheduler, "loans", 3);
            metrics.accept(scheduler.runCycle());
            ClusterObjects.create(server.client(), gang("tune", 1, "ml", "1"));
            await().atMost(Duration.ofSeconds(5)).until(() -> scheduler.cache().snapshot().cluster().jobs().containsKey(job("tune")));
            metrics.accept(scheduler.runCycle());

            // then: the job's second eviction is observed with its running total
            Scrape second = scrape(operations);
            assertThat(second.value("muster_pods_evicted_total{action=\"reclaim\",queue=\"lender\"}")).contains(2.0);
            assertThat(second.value("muster_job_evictions_count")).contains(2.0);
            assertThat(second.value("muster_job_evictions_bucket{le=\"1.0\"}")).contains(1.0);
            assertThat(second.value("muster_job_evictions_bucket{le=\"2.0\"}")).contains(2.0);
            assertThat(second.value("muster_job_evictions_sum")).contains(3.0);
            assertThat(second.value("muster_job_evictions_max")).contains(2.0);

            // when: the evicted job is deleted
            server.client().genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup").inNamespace("default")
                    .withName("loans").delete();
            server.client().pods().inNamespace("default").withLabel("app", "loans").delete();
            await().atMost(Duration.ofSeconds(5)).until(() -> !scheduler.cache().snapshot().cluster().jobs().containsKey(job("loans")));
            metrics.accept(scheduler.runCycle());

            // then: it is forgotten, what was observed stays
            Scrape third = scrape(operations);
            assertThat(third.value("muster_job_evictions_max")).contains(0.0);
            assertThat(third.value("muster_job_evictions_count")).contains(2.0);
        }
    }

    private static void awaitPods(LiveScheduler scheduler, String job, int pods) {
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            Job state = scheduler.cache().snapshot().cluster().jobs().get(job(job));
            return state != null && state.tasks().size() == pods;
        });
    }

    private static JobId job(String name) {
        return new JobId("default", name);
    }

    /** A pod of the gang already running on n1, as if an earlier cycle had placed it. */
    private static String runningPod(String name, String group) {
        return pod(name, group, "1").replace("  name: " + name + "\n", "  name: " + name + "\n  labels: {app: " + group + "}\n")
                .replace("  schedulerName: muster\n", "  schedulerName: muster\n  nodeName: n1\n")
                .replace("---\n", "status: {phase: Running, startTime: \"2026-01-01T00:00:00Z\"}\n---\n");
    }

    private static Scrape scrape(OperationsServer operations) throws IOException, InterruptedException {
        HttpResponse<String> response = Scrape.get(operations.address(), "/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("text/plain; version=0.0.4; charset=utf-8");
        return Scrape.parse(response.body());
    }
}
