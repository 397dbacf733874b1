package dev.muster.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ControllerSetTest {
    private final List<String> calls = new ArrayList<>();

    @Test
    void controllersStartByNameAndStopInTheReverseOrderOncePerTerm() throws InterruptedException {
        // given
        ControllerSet set = new ControllerSet(Set.of(new Recording("b"), new Recording("a"), new Recording("c")));

        // when: a term, a second start within it, its end, a second end
        set.startAll();
        set.startAll();
        set.stopAll();
        set.stopAll();

        // then
        assertThat(set.names()).containsExactly("a", "b", "c");
        assertThat(calls).containsExactly("start a", "start b", "start c", "stop c", "stop b", "stop a");
        assertThat(set.isRunning()).isFalse();
    }

    @Test
    void aControllerThatCannotStartStopsThoseStartedBeforeIt() {
        // given
        ControllerSet set = new ControllerSet(Set.of(new Recording("a"), new Recording("b", true), new Recording("c")));

        // when, then
        assertThatThrownBy(set::startAll).hasMessage("b cannot start");
        assertThat(calls).containsExactly("start a", "start b", "stop b", "stop a");
        assertThat(set.isRunning()).isFalse();
    }

    @Test
    void twoControllersMayNotShareAName() {
        assertThatThrownBy(() -> new ControllerSet(Set.of(new Recording("a"), new Recording("a"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two controllers are named a");
    }

    private final class Recording implements Controller {
        private final String name;
        private final boolean fails;

        Recording(String name) {
            this(name, false);
        }

        Recording(String name, boolean fails) {
            this.name = name;
            this.fails = fails;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void start() {
            calls.add("start " + name);
            if (fails) {
                throw new IllegalStateException(name + " cannot start");
            }
        }

        @Override
        public void stop() {
            calls.add("stop " + name);
        }
    }
}
