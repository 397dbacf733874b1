package dev.muster.bridge.airflow.api;

import java.util.List;

/**
 * The few reads Muster makes of Airflow's REST API. Implementations are thread-safe and block the
 * calling thread for at most their request timeout per attempt; each failure is an
 * {@link AirflowApiException} saying what failed and which setting to look at.
 */
public interface AirflowApi {
    /** Airflow's version, as {@code GET /version} reports it ({@code 3.3.2}). */
    String version();

    /**
     * Proves the configured user and password with the cheapest call that needs them, since
     * {@link #version()} needs none: v2 takes a new token ({@code POST /auth/token}), v1 lists one DAG
     * run of all DAGs ({@code GET /dags/~/dagRuns?limit=1}). Refused ones are an
     * {@link AirflowApiException.Failure#UNAUTHORIZED} naming the settings.
     */
    void checkCredentials();

    /** The tasks of a DAG with their downstream edges ({@code GET /dags/{dag_id}/tasks}). */
    List<AirflowTask> tasks(String dagId);

    /** The DAG's latest runs, newest first, at most {@code limit} ({@code GET /dags/{dag_id}/dagRuns}). */
    List<AirflowDagRun> dagRuns(String dagId, int limit);

    /**
     * The task instances of one run, every map index and the current try of each
     * ({@code GET /dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances}).
     */
    List<AirflowTaskInstance> taskInstances(String dagId, String runId);
}
