package dev.muster.engine.actions;

/**
 * The arguments of the reclaim and backfill actions: Volcano's {@code predicateErrorCacheEnable}.
 * Accepted so that Volcano configurations load; Muster evaluates predicates per task without Volcano's
 * per-role error cache; the
 * decisions differ only if tasks of one role had different placement constraints.
 */
public record PredicateCacheArgs(boolean predicateErrorCacheEnable) {
    public static final PredicateCacheArgs DEFAULTS = new PredicateCacheArgs(true);
}
