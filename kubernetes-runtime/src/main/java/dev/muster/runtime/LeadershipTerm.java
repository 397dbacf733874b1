package dev.muster.runtime;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.inject.Inject;
import dev.muster.runtime.controller.ControllerSet;
import dev.muster.runtime.history.JobHistoryStore;
import dev.muster.runtime.leader.LeaderElection;
import dev.muster.runtime.metrics.Health;
import dev.muster.runtime.scheduler.Scheduler;

/**
 * What runs while this replica leads: the scheduling loop and every contributed controller. Begun
 * when the Lease is won (at once without leader election), ended when it is lost or the process stops.
 */
@ThreadSafe
final class LeadershipTerm implements LeaderElection.Callbacks {
    private final Scheduler scheduler;
    private final ControllerSet controllers;
    private final Health health;
    private final JobHistoryStore history;
    private final boolean scheduling;

    @Inject
    LeadershipTerm(Scheduler scheduler, ControllerSet controllers, Health health, JobHistoryStore history, RuntimeOptions options) {
        this.scheduling = options.scheduling();
        this.history = requireNonNull(history, "history is null");
        this.scheduler = requireNonNull(scheduler, "scheduler is null");
        this.controllers = requireNonNull(controllers, "controllers is null");
        this.health = requireNonNull(health, "health is null");
    }

    /**
     * Loads the job history and starts the loop (unless {@link RuntimeOptions#scheduling()} is off), then
     * the controllers; a controller that cannot start ends the term it was to join.
     */
    synchronized void begin() throws InterruptedException {
        health.leading(true);
        if (scheduling) {
            history.load();
            scheduler.start();
        }
        try {
            controllers.startAll();
        } catch (InterruptedException | RuntimeException e) {
            end();
            throw e;
        }
    }

    /** Stops the controllers, then the loop after the cycle in progress, then writes the job history if the fence allows. */
    synchronized void end() throws InterruptedException {
        try {
            controllers.stopAll();
            scheduler.stop();
            if (scheduling) {
                history.flush();
            }
        } finally {
            health.leading(false);
        }
    }

    @Override
    public void startedLeading() {
        try {
            begin();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void stoppedLeading() {
        try {
            end();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
