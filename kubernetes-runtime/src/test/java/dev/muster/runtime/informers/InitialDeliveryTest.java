package dev.muster.runtime.informers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * fabric8 reports an informer started while its handler is still being given the listed objects; the
 * wait for those objects ends only once the handler has passed on every one of them.
 */
class InitialDeliveryTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final InitialDelivery delivery = new InitialDelivery();

    @Test
    void theWaitEndsAtOnceWhenEveryListedObjectWasDeliveredBefore() throws InterruptedException {
        // given
        delivery.delivered("default/a");
        delivery.delivered("default/b");
        List<Integer> reports = new CopyOnWriteArrayList<>();

        // when
        delivery.await(List.of("default/a", "default/b"), Duration.ofMillis(10), reports::add);

        // then
        assertThat(reports).isEmpty();
    }

    @Test
    void theWaitLastsUntilTheLastListedObjectIsDelivered() throws InterruptedException {
        // given: one of three pods handed to the handler when fabric8 says the informer started
        delivery.delivered("default/pod-0");
        List<Integer> reports = new CopyOnWriteArrayList<>();
        Thread waiting = new Thread(() -> {
            try {
                delivery.await(List.of("default/pod-0", "default/pod-1", "default/pod-2"), Duration.ofMillis(10), reports::add);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        // when
        waiting.start();
        delivery.delivered("default/pod-1");

        // then: still waiting for pod-2, and saying so
        await().atMost(WAIT).until(() -> reports.contains(1));
        assertThat(waiting.isAlive()).isTrue();

        // when
        delivery.delivered("default/pod-2");

        // then
        waiting.join(WAIT.toMillis());
        assertThat(waiting.isAlive()).isFalse();
    }
}
