package dev.muster.runtime.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.runtime.TestingClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseFenceTest {
    private final TestingClock clock = new TestingClock();
    private final LeaseFence fence = new LeaseFence(
            new LeaseConfig("default", "muster-scheduler", "me", Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2)),
            clock);

    @Test
    void isClosedUntilTheLeaseIsTakenThenOpenUntilTheRenewDeadlineAfterTheRenewalWasSent() {
        assertThat(fence.open()).isFalse();

        // when
        fence.renewed(clock.instant());
        clock.jump(Duration.ofSeconds(7));

        // then: writes may go on, each bounded by what is left
        assertThat(fence.open()).isTrue();
        assertThat(fence.remaining()).hasValueSatisfying(left -> assertThat(left).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(3)));

        // when: the replica wakes from a pause past its renew deadline, before its election has noticed
        clock.jump(Duration.ofSeconds(4));

        // then
        assertThat(fence.open()).isFalse();
    }

    @Test
    void isClosedAtOnceWhenTheLeaseIsLost() {
        fence.renewed(clock.instant());

        fence.close();

        assertThat(fence.open()).isFalse();
    }
}
