package dev.muster.bridge.airflow.api;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.bridge.airflow.generated.v1.api.DagApi;
import dev.muster.bridge.airflow.generated.v1.api.DagRunApi;
import dev.muster.bridge.airflow.generated.v1.api.MonitoringApi;
import dev.muster.bridge.airflow.generated.v1.api.TaskInstanceApi;
import dev.muster.bridge.airflow.generated.v1.client.ApiClient;
import dev.muster.bridge.airflow.generated.v1.client.ApiException;
import dev.muster.bridge.airflow.generated.v1.model.DAGRun;
import dev.muster.bridge.airflow.generated.v1.model.Task;
import dev.muster.bridge.airflow.generated.v1.model.TaskInstance;
import dev.muster.bridge.airflow.generated.v1.model.TaskInstanceCollection;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** REST API v1 (Airflow 2) over the generated client, with basic auth ({@code auth_backends = basic_auth}). */
@ThreadSafe
final class AirflowV1Api implements AirflowApi {
    // Airflow's [api] maximum_page_limit default
    private static final int PAGE = 100;

    private final AirflowSettings settings;
    private final Map<String, String> authorization;
    private final MonitoringApi monitoring;
    private final DagApi dags;
    private final DagRunApi dagRuns;
    private final TaskInstanceApi taskInstances;

    AirflowV1Api(AirflowSettings settings) {
        this.settings = settings;
        ApiClient client = new ApiClient(HttpClients.builder(settings), ApiClient.createDefaultObjectMapper(),
                V2Conversions.base(settings) + "/api/v1");
        client.setReadTimeout(settings.requestTimeout());
        String credentials = settings.username() + ":" + settings.password();
        this.authorization = Map.of("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(UTF_8)));
        this.monitoring = new MonitoringApi(client);
        this.dags = new DagApi(client);
        this.dagRuns = new DagRunApi(client);
        this.taskInstances = new TaskInstanceApi(client);
    }

    @Override
    public String version() {
        return call("GET /api/v1/version", () -> monitoring.getVersion(authorization).getVersion());
    }

    @Override
    public void checkCredentials() {
        // v1 has no login call; "~" is every DAG, and one run (or none) is the cheapest authenticated read
        call("GET /api/v1/dags/~/dagRuns?limit=1", () -> dagRuns.getDagRuns(DagRunApi.APIGetDagRunsRequest.newBuilder()
                .dagId("~").limit(1).build(), authorization));
    }

    @Override
    public List<AirflowTask> tasks(String dagId) {
        return call("GET /api/v1/dags/" + dagId + "/tasks", () -> dags.getTasks(DagApi.APIGetTasksRequest.newBuilder().dagId(dagId).build(),
                authorization).getTasks().stream().map(AirflowV1Api::task).collect(ImmutableList.toImmutableList()));
    }

    @Override
    public List<AirflowDagRun> dagRuns(String dagId, int limit) {
        return call("GET /api/v1/dags/" + dagId + "/dagRuns", () -> dagRuns.getDagRuns(DagRunApi.APIGetDagRunsRequest.newBuilder()
                        .dagId(dagId).limit(Math.min(limit, PAGE)).orderBy("-execution_date").build(), authorization)
                .getDagRuns().stream().map(AirflowV1Api::dagRun).collect(ImmutableList.toImmutableList()));
    }

    @Override
    public List<AirflowTaskInstance> taskInstances(String dagId, String runId) {
        return call("GET /api/v1/dags/" + dagId + "/dagRuns/" + runId + "/taskInstances", () -> {
            List<AirflowTaskInstance> all = new ArrayList<>();
            while (true) {
                TaskInstanceCollection page = taskInstances.getTaskInstances(TaskInstanceApi.APIGetTaskInstancesRequest.newBuilder()
                        .dagId(dagId).dagRunId(runId).limit(PAGE).offset(all.size()).build(), authorization);
                for (TaskInstance instance : page.getTaskInstances()) {
                    all.add(taskInstance(instance));
                }
                if (page.getTaskInstances().isEmpty() || all.size() >= Optional.ofNullable(page.getTotalEntries()).orElse(0)) {
                    return ImmutableList.copyOf(all);
                }
            }
        });
    }

    private static AirflowTask task(Task task) {
        return new AirflowTask(task.getTaskId(),
                Optional.ofNullable(task.getDownstreamTaskIds()).orElse(List.of()),
                Optional.ofNullable(task.getPriorityWeight()),
                Optional.ofNullable(task.getWeightRule()),
                Optional.ofNullable(task.getPool()),
                Optional.ofNullable(task.getQueue()),
                Boolean.TRUE.equals(task.getIsMapped()),
                Optional.ofNullable(task.getClassRef()).map(reference -> reference.getClassName()));
    }

    private static AirflowDagRun dagRun(DAGRun run) {
        return new AirflowDagRun(run.getDagId(), run.getDagRunId(), run.getState() == null ? "none" : run.getState().getValue(),
                Optional.ofNullable(run.getStartDate()).map(OffsetDateTime::toInstant),
                Optional.ofNullable(run.getEndDate()).map(OffsetDateTime::toInstant));
    }

    private static AirflowTaskInstance taskInstance(TaskInstance instance) {
        return new AirflowTaskInstance(instance.getTaskId(),
                Optional.ofNullable(instance.getMapIndex()).orElse(AirflowTaskInstance.NOT_MAPPED),
                Optional.ofNullable(instance.getTryNumber()).orElse(0),
                instance.getState() == null ? "none" : instance.getState().getValue(),
                V2Conversions.seconds(instance.getDuration()),
                Optional.ofNullable(instance.getPool()));
    }

    private interface Call<T> {
        T run() throws ApiException;
    }

    private <T> T call(String what, Call<T> call) {
        try {
            return call.run();
        } catch (ApiException e) {
            throw ApiFailures.classify(settings, what, e.getCode(), e.getCause(), e.getResponseBody());
        }
    }
}
