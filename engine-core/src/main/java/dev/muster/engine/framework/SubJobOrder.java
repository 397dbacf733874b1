package dev.muster.engine.framework;

/**
 * Orders the subgroups of one job: negative when the left one should be placed first. The first
 * non-zero answer in tier order wins; then the match index, then the id.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface SubJobOrder {
    int compareSubJobs(SubJobState left, SubJobState right);
}
