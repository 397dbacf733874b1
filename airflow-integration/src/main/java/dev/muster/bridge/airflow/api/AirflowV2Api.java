package dev.muster.bridge.airflow.api;

import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.bridge.airflow.generated.v2.api.DagRunApi;
import dev.muster.bridge.airflow.generated.v2.api.TaskApi;
import dev.muster.bridge.airflow.generated.v2.api.TaskInstanceApi;
import dev.muster.bridge.airflow.generated.v2.api.VersionApi;
import dev.muster.bridge.airflow.generated.v2.client.ApiClient;
import dev.muster.bridge.airflow.generated.v2.client.ApiException;
import dev.muster.bridge.airflow.generated.v2.model.DAGRunResponse;
import dev.muster.bridge.airflow.generated.v2.model.TaskInstanceCollectionResponse;
import dev.muster.bridge.airflow.generated.v2.model.TaskInstanceResponse;
import dev.muster.bridge.airflow.generated.v2.model.TaskResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * REST API v2 (Airflow 3) over the generated client, authenticated with a JWT from
 * {@code POST /auth/token} ({@link JwtTokens}). A 401 takes a new token once (it may have expired)
 * before failing.
 */
@ThreadSafe
final class AirflowV2Api implements AirflowApi {
    // Airflow's [api] maximum_page_limit default
    private static final int PAGE = 100;

    private final AirflowSettings settings;
    private final JwtTokens tokens;
    private final VersionApi versions;
    private final TaskApi tasks;
    private final DagRunApi dagRuns;
    private final TaskInstanceApi taskInstances;

    AirflowV2Api(AirflowSettings settings) {
        this.settings = settings;
        ApiClient client = new ApiClient(HttpClients.builder(settings), ApiClient.createDefaultObjectMapper(), V2Conversions.base(settings));
        client.setReadTimeout(settings.requestTimeout());
        this.tokens = new JwtTokens(settings);
        this.versions = new VersionApi(client);
        this.tasks = new TaskApi(client);
        this.dagRuns = new DagRunApi(client);
        this.taskInstances = new TaskInstanceApi(client);
    }

    @Override
    public String version() {
        // needs no token, so it tells an unreachable server from refused credentials
        try {
            return versions.getVersion().getVersion();
        } catch (ApiException e) {
            throw ApiFailures.classify(settings, "GET /api/v2/version", e.getCode(), e.getCause(), e.getResponseBody());
        }
    }

    @Override
    public void checkCredentials() {
        // a new token, not a kept one: the check is about the settings now
        tokens.invalidate();
        tokens.authorization();
    }

    @Override
    public List<AirflowTask> tasks(String dagId) {
        return call("GET /api/v2/dags/" + dagId + "/tasks", headers -> {
            List<TaskResponse> found = tasks.getTasks(TaskApi.APIGetTasksRequest.newBuilder().dagId(dagId).build(), headers).getTasks();
            return found.stream().map(V2Conversions::task).collect(ImmutableList.toImmutableList());
        });
    }

    @Override
    public List<AirflowDagRun> dagRuns(String dagId, int limit) {
        return call("GET /api/v2/dags/" + dagId + "/dagRuns", headers -> {
            List<DAGRunResponse> found = dagRuns.getDagRuns(DagRunApi.APIGetDagRunsRequest.newBuilder()
                    .dagId(dagId).limit(Math.min(limit, PAGE)).orderBy(List.of("-run_after")).build(), headers).getDagRuns();
            return found.stream().map(V2Conversions::dagRun).collect(ImmutableList.toImmutableList());
        });
    }

    @Override
    public List<AirflowTaskInstance> taskInstances(String dagId, String runId) {
        return call("GET /api/v2/dags/" + dagId + "/dagRuns/" + runId + "/taskInstances", headers -> {
            List<AirflowTaskInstance> all = new ArrayList<>();
            while (true) {
                TaskInstanceCollectionResponse page = taskInstances.getTaskInstances(TaskInstanceApi.APIGetTaskInstancesRequest.newBuilder()
                        .dagId(dagId).dagRunId(runId).limit(PAGE).offset(all.size()).orderBy(List.of("id")).build(), headers);
                for (TaskInstanceResponse instance : page.getTaskInstances()) {
                    all.add(V2Conversions.taskInstance(instance));
                }
                if (page.getTaskInstances().isEmpty() || all.size() >= Optional.ofNullable(page.getTotalEntries()).orElse(0)) {
                    return ImmutableList.copyOf(all);
                }
            }
        });
    }

    private interface Call<T> {
        T run(Map<String, String> headers) throws ApiException;
    }

    private <T> T call(String what, Call<T> call) {
        try {
            return call.run(tokens.authorization());
        } catch (ApiException e) {
            if (e.getCode() == 401) {
                tokens.invalidate();
                try {
                    return call.run(tokens.authorization());
                } catch (ApiException again) {
                    throw ApiFailures.classify(settings, what, again.getCode(), again.getCause(), again.getResponseBody());
                }
            }
            throw ApiFailures.classify(settings, what, e.getCode(), e.getCause(), e.getResponseBody());
        }
    }
}
