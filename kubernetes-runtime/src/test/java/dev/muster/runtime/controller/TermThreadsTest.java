package dev.muster.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TermThreadsTest {
    private final CountDownLatch running = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CompletableFuture<String> request = new CompletableFuture<>();

    @Test
    void workersAndTimerAreDaemonsNamedAfterTheTerm() throws Exception {
        // given
        TermThreads threads = new TermThreads("muster-example", 2);

        // when
        String worker = threads.workers().submit(TermThreadsTest::describeThread).get(10, TimeUnit.SECONDS);
        String timer = threads.timer().schedule(TermThreadsTest::describeThread, 0, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
        threads.stop();

        // then
        assertThat(worker).isEqualTo("muster-example-0 daemon");
        assertThat(timer).isEqualTo("muster-example-timer-0 daemon");
    }

    @Test
    void stopInterruptsTheRequestsInProgress() throws InterruptedException {
        // given
        TermThreads threads = new TermThreads("muster-example", 1);
        threads.workers().execute(this::waitForRelease);
        running.await(10, TimeUnit.SECONDS);

        // when
        threads.stop();
        threads.stop();

        // then
        await().atMost(Duration.ofSeconds(10)).until(request::isDone);
        assertThat(request.join()).isEqualTo("interrupted");
        assertThat(threads.timer().isShutdown()).isTrue();
    }

    @Test
    void aGracefulStopLetsTheRequestsInProgressFinish() throws InterruptedException {
        // given
        TermThreads threads = new TermThreads("muster-example", 1);
        threads.workers().execute(this::waitForRelease);
        running.await(10, TimeUnit.SECONDS);

        // when: the grace ends before the request does
        boolean finishedInGrace = threads.stop(Duration.ofMillis(50));
        release.countDown();

        // then: it was left to finish, not interrupted
        assertThat(finishedInGrace).isFalse();
        assertThat(threads.stop(Duration.ofSeconds(10))).isTrue();
        assertThat(request.join()).isEqualTo("finished");
        assertThat(threads.timer().isShutdown()).isTrue();
    }

    private void waitForRelease() {
        running.countDown();
        try {
            request.complete(release.await(30, TimeUnit.SECONDS) ? "finished" : "timed out");
        } catch (InterruptedException e) {
            request.complete("interrupted");
            Thread.currentThread().interrupt();
        }
    }

    private static String describeThread() {
        Thread thread = Thread.currentThread();
        return thread.getName() + (thread.isDaemon() ? " daemon" : "");
    }
}
