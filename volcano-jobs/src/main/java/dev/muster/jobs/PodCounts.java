package dev.muster.jobs;

import static com.google.common.base.Preconditions.checkArgument;

/** A job's pods by phase, as {@code status.pending}, {@code running}, ... count them. */
public record PodCounts(int pending, int running, int succeeded, int failed, int terminating, int unknown) {
    public static final PodCounts NONE = new PodCounts(0, 0, 0, 0, 0, 0);

    public PodCounts {
        checkArgument(pending >= 0 && running >= 0 && succeeded >= 0 && failed >= 0 && terminating >= 0 && unknown >= 0,
                "negative pod count: pending=%s running=%s succeeded=%s failed=%s terminating=%s unknown=%s",
                pending, running, succeeded, failed, terminating, unknown);
    }

    /** Pods neither finished nor on their way out: the ones Aborting, Completing and Terminating wait for. */
    public boolean hasLivePods() {
        return pending > 0 || running > 0 || terminating > 0;
    }
}
