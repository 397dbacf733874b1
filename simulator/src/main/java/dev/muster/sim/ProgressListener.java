package dev.muster.sim;

/**
 * Hears how far a run is, after each simulated instant. Called on the simulation's thread; it must
 * return quickly (throttle any output itself).
 */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = (finishedJobs, totalJobs, simulatedMillis) -> {};

    void progress(int finishedJobs, int totalJobs, long simulatedMillis);
}
