package dev.muster.runtime.controller;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import com.google.inject.Inject;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@link Controller} of the process, started together for a leader term and stopped together,
 * in the reverse order. The order is by name, so the same modules start the same way every time.
 */
@ThreadSafe
public final class ControllerSet {
    private static final Logger log = LoggerFactory.getLogger(ControllerSet.class);

    private final ImmutableList<Controller> controllers;
    /** The controllers started in this term, last started first. */
    @GuardedBy("this")
    private final Deque<Controller> running = new ArrayDeque<>();

    @Inject
    public ControllerSet(Set<Controller> controllers) {
        requireNonNull(controllers, "controllers is null");
        this.controllers = controllers.stream().sorted(Comparator.comparing(Controller::name)).collect(ImmutableList.toImmutableList());
        Set<String> names = new HashSet<>();
        for (Controller controller : this.controllers) {
            checkArgument(names.add(controller.name()), "two controllers are named %s", controller.name());
        }
    }

    /** The controllers' names, in start order. */
    public ImmutableList<String> names() {
        return controllers.stream().map(Controller::name).collect(ImmutableList.toImmutableList());
    }

    /**
     * Starts every controller not running. If one fails, those started are stopped again and the
     * failure is thrown: a term runs all its controllers or none.
     */
    public synchronized void startAll() throws InterruptedException {
        if (!running.isEmpty()) {
            return;
        }
        for (Controller controller : controllers) {
            try {
                controller.start();
                running.push(controller);
                log.info("controller started name={}", controller.name());
            } catch (InterruptedException | RuntimeException e) {
                controller.stop();
                stopAll();
                throw e;
            }
        }
    }

    /** Stops the running controllers, last started first; idempotent. */
    public synchronized void stopAll() {
        while (!running.isEmpty()) {
            Controller controller = running.pop();
            controller.stop();
            log.info("controller stopped name={}", controller.name());
        }
    }

    public synchronized boolean isRunning() {
        return !running.isEmpty();
    }
}
