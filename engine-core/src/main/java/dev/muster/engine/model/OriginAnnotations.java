package dev.muster.engine.model;

/**
 * PodGroup annotations through which a bridge says where a job comes from, in its users' words, so
 * that why the job waits (the PodGroup's {@code Unschedulable} condition and Events, {@code muster
 * what-if}) names the workflow, run and step a person knows rather than a generated PodGroup name. All
 * are optional and only explain: no plugin reads them, and no decision depends on them. A PodGroup
 * with none of {@link #WORKFLOW}, {@link #RUN} and {@link #STEP} has no origin.
 *
 * <ul>
 *   <li>{@code muster.dev/origin}: the system that launched the job, as its users call it ({@code Airflow});
 *   <li>{@code muster.dev/origin-workflow}: the workflow ({@code etl_daily}, an Airflow {@code dag_id});
 *   <li>{@code muster.dev/origin-run}: the run of that workflow ({@code scheduled__2026-12-04T00:00:00+00:00});
 *   <li>{@code muster.dev/origin-step}: the step of that run ({@code transform}, an Airflow {@code task_id});
 *   <li>{@code muster.dev/origin-step-indexes}: which instances of a fanned-out step the job runs, one
 *       index or a range ({@code 3}, {@code 0-19}: Airflow's map indexes);
 *   <li>{@code muster.dev/origin-terms}: the system's own words for workflow, run and step, comma-separated
 *       ({@code DAG,run,task}); without it, or when it is not three words, {@code workflow,run,step}.
 * </ul>
 *
 * <p>The Airflow bridge sets them from a pod's DAG, run and task: a waiting PodGroup then says
 * {@code 1/2 tasks of the gang fit: ...; for Airflow DAG etl_daily, run scheduled__2026-12-04T00:00:00+00:00, task transform[0-1]}.
 */
public final class OriginAnnotations {
    public static final String SYSTEM = "muster.dev/origin";
    public static final String WORKFLOW = "muster.dev/origin-workflow";
    public static final String RUN = "muster.dev/origin-run";
    public static final String STEP = "muster.dev/origin-step";
    public static final String STEP_INDEXES = "muster.dev/origin-step-indexes";
    public static final String TERMS = "muster.dev/origin-terms";

    private OriginAnnotations() {}
}
