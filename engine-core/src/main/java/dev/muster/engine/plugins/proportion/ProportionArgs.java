package dev.muster.engine.plugins.proportion;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The proportion plugin's arguments. Volcano's proportion takes none; this one is Muster's.
 *
 * @param admitWithinDeserved admit a job only while its {@code minResources}, with what its queue runs
 *     and has already admitted, fits the queue's deserved share, not just its capability. Volcano admits
 *     up to the capability, so a queue with a small share and a burst of jobs fills the cluster-wide
 *     admission budget of {@code overcommit} with jobs that allocate cannot place (they are over the
 *     queue's deserved share), and every other queue's jobs wait at admission while the cluster idles
 *     (Volcano issue 3670). So that the share counts what waits, a Pending or Inqueue job requests at
 *     least its {@code minResources} in the deserved computation (Volcano's job controller creates pods
 *     only once the PodGroup is admitted). Off by default, as Volcano; Muster's default configuration
 *     turns it on.
 */
public record ProportionArgs(@JsonProperty("admit-within-deserved") boolean admitWithinDeserved) {
    public static final ProportionArgs DEFAULTS = new ProportionArgs(false);
}
