package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import dev.muster.sim.ProgressListener;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A progress bar on stderr for one policy's run, drawn only once the run has lasted two seconds of
 * wall time and then at most five times a second, so short runs print nothing. Wall time only paces
 * the drawing; the simulation never reads it.
 */
final class ProgressBar implements ProgressListener {
    private static final long DELAY_NANOS = 2_000_000_000L;
    private static final long INTERVAL_NANOS = 200_000_000L;
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final String label;
    private final LongSupplier nanoTime;
    private final long startedNanos;
    private long drawnNanos;
    private boolean drawn;

    ProgressBar(PrintWriter err, String label, LongSupplier nanoTime) {
        this.err = requireNonNull(err, "err is null");
        this.label = requireNonNull(label, "label is null");
        this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
        this.startedNanos = nanoTime.getAsLong();
    }

    @Override
    public void progress(int finishedJobs, int totalJobs, long simulatedMillis) {
        long now = nanoTime.getAsLong();
        boolean done = finishedJobs == totalJobs;
        if (now - startedNanos < DELAY_NANOS || (now - drawnNanos < INTERVAL_NANOS && !done)) {
            return;
        }
        if (done && !drawn) {
            return;
        }
        drawnNanos = now;
        drawn = true;
        int filled = totalJobs == 0 ? WIDTH : (int) ((long) WIDTH * finishedJobs / totalJobs);
        err.print(String.format(Locale.ROOT, "\r%-10s [%s%s] %d/%d jobs, %.1f simulated days, %.0f s", label, "#".repeat(filled),
                " ".repeat(WIDTH - filled), finishedJobs, totalJobs, simulatedMillis / 86_400_000.0, (now - startedNanos) / 1e9));
        err.flush();
    }

    /** Ends the bar's line if one was drawn. */
    void finish() {
        if (drawn) {
            err.println();
            err.flush();
        }
    }
}
