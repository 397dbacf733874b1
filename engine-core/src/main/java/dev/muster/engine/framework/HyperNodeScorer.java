package dev.muster.engine.framework;

import java.util.List;
import java.util.Map;

/**
 * Scores the hypernodes a subgroup could be placed in (Volcano's {@code HyperNodeOrderFn}); the
 * scores of all enabled plugins are summed and the highest wins. Allocate calls it after a dry run
 * found a placement in each candidate, with the dry runs undone.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface HyperNodeScorer {
    /** A score per candidate hypernode; hypernodes missing from the result score 0. */
    Map<String, Double> scoreHyperNodes(SubJobState subJob, List<String> hyperNodes);
}
