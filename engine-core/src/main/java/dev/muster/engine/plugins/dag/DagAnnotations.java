package dev.muster.engine.plugins.dag;

/**
 * PodGroup annotations through which job controllers and bridges tell the scheduler about job DAGs.
 * A Volcano Job's annotations are copied onto its PodGroup, so a JobFlow puts them on the Jobs it
 * creates. All are optional; a PodGroup without {@link #DAG} is not part of a DAG.
 *
 * <ul>
 *   <li>{@code muster.dev/dag}: the DAG the job belongs to, {@code <namespace>/<name>} of the JobFlow
 *       (or workflow);
 *   <li>{@code muster.dev/dag-node}: the job's node in that DAG (the JobFlow's flow name);
 *   <li>{@code muster.dev/dag-remaining-path}: the remaining critical path from this job's start: its
 *       own estimated run time plus that of its slowest chain of descendants, in whole seconds
 *       ({@code 8700}); the {@code dag} plugin schedules the DAG with the least remaining first, and
 *       within a DAG the job with the longest remaining path;
 *   <li>{@code muster.dev/dag-priority-weight}: how much the job matters against other jobs, a whole
 *       number, zero or more ({@code 9}); where the remaining paths do not decide (equal, or one job
 *       has none), the {@code dag} plugin schedules the higher weight first. The Airflow bridge writes
 *       a task's effective {@code priority_weight}, summed by its {@code weight_rule} as Airflow does;
 *       a negative or unreadable value is no weight;
 *   <li>{@code muster.dev/dag-waiting-on}: a comma-separated list of the parents that have not yet
 *       finished as the job needs; while it is not empty the job is not admitted to its queue and
 *       not scheduled. A JobFlow creates a stage's Job only once its parents completed, so it never
 *       sets this; controllers that create a whole DAG up front (workflow bridges) do.
 * </ul>
 */
public final class DagAnnotations {
    public static final String DAG = "muster.dev/dag";
    public static final String NODE = "muster.dev/dag-node";
    public static final String REMAINING_PATH = "muster.dev/dag-remaining-path";
    public static final String WAITING_ON = "muster.dev/dag-waiting-on";
    public static final String PRIORITY_WEIGHT = "muster.dev/dag-priority-weight";

    private DagAnnotations() {}
}
