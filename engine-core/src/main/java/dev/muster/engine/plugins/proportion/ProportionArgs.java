package dev.muster.engine.plugins.proportion;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.muster.engine.api.GoDuration;
import java.time.Duration;

/**
 * The proportion plugin's arguments. Volcano's proportion takes none; these are Muster's, all off by default.
 *
 * @param admitWithinDeserved admit a job only while its {@code minResources}, with what its queue runs
 *     and has already admitted, fits the queue's deserved share, not just its capability. Volcano admits
 *     up to the capability, so a queue with a small share and a burst of jobs fills the cluster-wide
 *     admission budget of {@code overcommit} with jobs that allocate cannot place (they are over the
 *     queue's deserved share), and every other queue's jobs wait at admission while the cluster idles
 *     (Volcano issue 3670). So that the share counts what waits, a Pending or Inqueue job requests at
 *     least its {@code minResources} in the deserved computation (Volcano's job controller creates pods
 *     only once the PodGroup is admitted).
 * @param lendIdleShare work-conserving fair share: a queue may take more than its deserved share (up to
 *     its capability) when the others leave it idle, because their pending gangs cannot be placed or
 *     they have no demand. Queues are still served smallest share first, so an owner under its share is
 *     always asked before a borrower; what a queue holds above its deserved share is a loan, and the
 *     owner takes it back with the {@code reclaim} action (Volcano's proportion caps every queue at its
 *     deserved share, so idle GPUs stay idle: Volcano issues 4617, 4679).
 * @param minLoanRuntime how long a lent task runs before reclaim may take it back, as a Go duration
 *     ({@code 10m}); a loan's run is lost when it is reclaimed, so a short guaranteed run stops an owner
 *     and a borrower from trading the same GPUs back and forth. {@code 0s} for none.
 */
public record ProportionArgs(
        @JsonProperty("admit-within-deserved") boolean admitWithinDeserved,
        @JsonProperty("lend-idle-share") boolean lendIdleShare,
        @JsonProperty("min-loan-runtime") String minLoanRuntime) {
    public static final ProportionArgs DEFAULTS = new ProportionArgs(false, false, "0s");

    public ProportionArgs {
        requireNonNull(minLoanRuntime, "minLoanRuntime is null");
        checkArgument(!GoDuration.parse(minLoanRuntime).isNegative(), "min-loan-runtime must not be negative, got '%s'", minLoanRuntime);
    }

    public Duration minLoanRuntimeDuration() {
        return GoDuration.parse(minLoanRuntime);
    }
}
