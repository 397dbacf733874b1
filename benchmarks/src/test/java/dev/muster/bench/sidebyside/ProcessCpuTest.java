package dev.muster.bench.sidebyside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {
    @Test
    void userAndSystemTicksAreAddedAndTurnedIntoTime() {
        // given: utime 1234 and stime 567 ticks (fields 14 and 15)
        String stat = "4242 (java) S 1 4242 4242 0 -1 4194560 12345 0 0 0 1234 567 0 0 20 0 42 0 1000 5000000 3000 18446744073709551615";

        // when
        Duration cpu = ProcessCpu.parse(stat);

        // then
        assertThat(cpu).isEqualTo(Duration.ofMillis(18_010));
    }

    @Test
    void aCommandWithSpacesAndParenthesesDoesNotShiftTheFields() {
        // given: a command name as a process may set it, with a space and a ')' of its own
        String stat = "77 (kube sched) x) R 1 77 77 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 10 100 10 0";

        // when
        Duration cpu = ProcessCpu.parse(stat);

        // then
        assertThat(cpu).isEqualTo(Duration.ofMillis(70));
    }

    @Test
    void theRunningJvmsOwnStatIsRead() {
        // given: this JVM has run at least this test's class loading
        long pid = ProcessHandle.current().pid();

        // when
        Duration cpu = ProcessCpu.of(pid);

        // then
        assertThat(cpu).isPositive();
    }

    @Test
    void aLineThatIsNotAStatLineIsRefused() {
        assertThatThrownBy(() -> ProcessCpu.parse("not a stat line")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a /proc/PID/stat line");
    }
}
