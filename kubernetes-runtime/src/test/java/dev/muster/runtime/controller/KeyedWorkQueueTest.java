package dev.muster.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Requests are serialised per object, in order; failures are retried; one failing object does not stop the others. */
class KeyedWorkQueueTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final ExecutorService workers = Executors.newFixedThreadPool(4);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void shutDown() {
        workers.shutdownNow();
        timer.shutdownNow();
    }

    @Test
    void requestsForOneObjectRunOneAtATimeInOrder() throws InterruptedException {
        // given: the first request holds its object until released
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger mostConcurrent = new AtomicInteger();
        List<Integer> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        KeyedWorkQueue<String, Integer> queue = queue((key, request) -> {
            mostConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
            if (request == 1) {
                awaitRelease(release);
            }
            seen.add(request);
            concurrent.decrementAndGet();
        });

        // when
        for (int request = 1; request <= 5; request++) {
            queue.add("ns/job", request);
        }
        release.countDown();

        // then
        await().atMost(WAIT).untilAsserted(() -> assertThat(seen).containsExactly(1, 2, 3, 4, 5));
        assertThat(mostConcurrent.get()).isEqualTo(1);
    }

    @Test
    void aFailingRequestIsTriedAgainAndOtherObjectsGoOn() {
        // given: ns/bad fails twice, then succeeds
        Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        List<String> done = java.util.Collections.synchronizedList(new ArrayList<>());
        KeyedWorkQueue<String, String> queue = queue((key, request) -> {
            int attempt = attempts.computeIfAbsent(key, ignored -> new AtomicInteger()).incrementAndGet();
            if (key.equals("ns/bad") && attempt <= 2) {
                throw new IllegalStateException("injected failure " + attempt);
            }
            done.add(key + ":" + request);
        });

        // when
        queue.add("ns/bad", "sync");
        queue.add("ns/good", "sync");

        // then
        await().atMost(WAIT).untilAsserted(() -> assertThat(done).containsExactlyInAnyOrder("ns/good:sync", "ns/bad:sync"));
        assertThat(attempts.get("ns/bad")).hasValue(3);
        assertThat(attempts.get("ns/good")).hasValue(1);
    }

    @Test
    void aRequestEqualToTheLastOneWaitingIsDropped() {
        // given: the object is busy, so requests wait
        CountDownLatch release = new CountDownLatch(1);
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        KeyedWorkQueue<String, String> queue = queue((key, request) -> {
            if (request.equals("first")) {
                awaitRelease(release);
            }
            seen.add(request);
        });
        queue.add("ns/job", "first");

        // when
        queue.add("ns/job", "sync");
        queue.add("ns/job", "sync");
        queue.add("ns/job", "pod-failed");
        queue.add("ns/job", "sync");
        release.countDown();

        // then
        await().atMost(WAIT).untilAsserted(() -> assertThat(seen).containsExactly("first", "sync", "pod-failed", "sync"));
    }

    private <R> KeyedWorkQueue<String, R> queue(KeyedWorkQueue.Worker<String, R> worker) {
        return new KeyedWorkQueue<>("test", worker, workers, timer, Duration.ofMillis(10), Duration.ofMillis(50));
    }

    private static void awaitRelease(CountDownLatch latch) {
        try {
            latch.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
