package dev.muster.runtime.controller;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Optional;

/**
 * A {@link Controller} that makes a fresh {@link Term} (its informers, work queues and threads) for
 * each leader term and ends it with the term, so nothing of a lost term survives into the next. What
 * Volcano's job controllers and the bridges' controllers are.
 */
@ThreadSafe
public abstract class TermController implements Controller {
    /** What runs for one term; made by {@link #newTerm()}, started once and stopped once. */
    public interface Term {
        /** Starts; may block until its informers have listed their kinds once. */
        void start() throws InterruptedException;

        /** Stops: no write after it returns; must not throw. */
        void stop();
    }

    @GuardedBy("this")
    private Optional<Term> term = Optional.empty();

    /** A new term's state, not started; called on the runtime's leadership thread. */
    protected abstract Term newTerm();

    @Override
    public final synchronized void start() throws InterruptedException {
        if (term.isPresent()) {
            return;
        }
        Term started = newTerm();
        try {
            started.start();
        } catch (InterruptedException | RuntimeException e) {
            started.stop();
            throw e;
        }
        term = Optional.of(started);
    }

    @Override
    public final synchronized void stop() {
        term.ifPresent(Term::stop);
        term = Optional.empty();
    }
}
