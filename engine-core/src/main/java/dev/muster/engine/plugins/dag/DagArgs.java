package dev.muster.engine.plugins.dag;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The dag plugin's arguments.
 *
 * @param acrossDags how jobs of different DAGs are ordered: {@value #SOONEST_END} (the default) puts the DAG
 *     expected to end soonest first, which lowers the average completion time of many pipelines;
 *     {@value #LONGEST_PATH} puts the job with the longest remaining critical path first whatever its DAG, the
 *     plugin's order before issue 15, which shortens the longest pipeline (the makespan) at the others' cost.
 *     Within one DAG the longest remaining path goes first either way.
 */
public record DagArgs(@JsonProperty("across-dags") String acrossDags) {
    public static final String SOONEST_END = "soonest-end";
    public static final String LONGEST_PATH = "longest-path";
    public static final DagArgs DEFAULTS = new DagArgs(SOONEST_END);

    public DagArgs {
        requireNonNull(acrossDags, "acrossDags is null");
        checkArgument(acrossDags.equals(SOONEST_END) || acrossDags.equals(LONGEST_PATH),
                "across-dags must be %s or %s, got '%s'", SOONEST_END, LONGEST_PATH, acrossDags);
    }

    /** Whether jobs of different DAGs are ordered by their DAGs' expected remaining time. */
    boolean soonestEndFirst() {
        return acrossDags.equals(SOONEST_END);
    }
}
