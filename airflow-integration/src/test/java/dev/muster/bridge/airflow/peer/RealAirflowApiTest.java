package dev.muster.bridge.airflow.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.muster.bridge.airflow.api.AirflowApi;
import dev.muster.bridge.airflow.api.AirflowApiException;
import dev.muster.bridge.airflow.api.AirflowApiVersion;
import dev.muster.bridge.airflow.api.AirflowApis;
import dev.muster.bridge.airflow.api.AirflowDagRun;
import dev.muster.bridge.airflow.api.AirflowSettings;
import dev.muster.bridge.airflow.api.AirflowTask;
import dev.muster.bridge.airflow.api.AirflowTaskInstance;
import dev.muster.bridge.airflow.hints.DagRunPlanner;
import dev.muster.bridge.airflow.hints.HintSettings;
import dev.muster.bridge.airflow.hints.TaskHint;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Muster's generated v2 client against the real Airflow 3.3.2, standalone on SQLite. */
@WithRealAirflow
class RealAirflowApiTest {
    private static final Optional<String> DOWNSTREAM = Optional.of("downstream");

    private static AirflowApi api(RealAirflow airflow) {
        return AirflowApis.connect(airflow.settings());
    }

    private static List<AirflowTask> awaitTasks(AirflowApi api, String dagId) {
        // the DAG processor parses the folder a few seconds after start; until then the DAG is a 404
        return Awaitility.await(dagId + " parsed").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                .ignoreException(AirflowApiException.class)
                .until(() -> api.tasks(dagId), tasks -> !tasks.isEmpty());
    }

    @Test
    void versionIsThePeers(RealAirflow airflow) {
        assertThat(api(airflow).version()).isEqualTo(airflow.version()).isEqualTo("3.3.2");
    }

    @Test
    void readsTheDiamondsTaskGraphPoolsAndPriorityWeights(RealAirflow airflow) {
        Map<String, AirflowTask> tasks = awaitTasks(api(airflow), "muster_diamond").stream()
                .collect(Collectors.toMap(AirflowTask::taskId, Function.identity()));

        assertThat(tasks).containsOnlyKeys("extract", "clean", "features", "train", "publish");
        assertThat(tasks.get("extract").downstreamTaskIds()).containsExactlyInAnyOrder("clean", "features");
        assertThat(tasks.get("clean").downstreamTaskIds()).containsExactly("train");
        assertThat(tasks.get("features").downstreamTaskIds()).containsExactly("train");
        assertThat(tasks.get("train").downstreamTaskIds()).containsExactly("publish");
        assertThat(tasks.get("publish").downstreamTaskIds()).isEmpty();
        assertThat(tasks.values()).extracting(AirflowTask::taskId, task -> task.priorityWeight().orElseThrow().intValueExact(),
                        AirflowTask::weightRule, AirflowTask::mapped)
                .containsExactlyInAnyOrder(tuple("extract", 3, DOWNSTREAM, false), tuple("clean", 1, DOWNSTREAM, false),
                        tuple("features", 2, DOWNSTREAM, false), tuple("train", 4, DOWNSTREAM, true), tuple("publish", 1, DOWNSTREAM, false));
        assertThat(tasks.get("extract").pool()).contains("default_pool");
        assertThat(tasks.get("extract").queue()).contains("etl");
        assertThat(tasks.get("train").operatorName()).contains("KubernetesPodOperator");
    }

    @Test
    void readsARunsTaskInstancesWithMapIndexesTriesAndDurations(RealAirflow airflow) throws Exception {
        AirflowApi api = api(airflow);
        awaitTasks(api, "muster_history");
        AirflowRestCalls calls = new AirflowRestCalls(airflow);
        String runId = calls.trigger("muster_history");

        // a loaded machine's API server may time out a poll now and then: only the run's end counts
        String state = Awaitility.await("muster_history run " + runId + " ended").atMost(Duration.ofMinutes(6))
                .pollInterval(Duration.ofSeconds(3)).ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> calls.runState("muster_history", runId), ended -> ended.equals("success") || ended.equals("failed"));
        assertThat(state).as("the run's state; Airflow's log:%n%s", airflow.logTail(60)).isEqualTo("success");
        List<AirflowTaskInstance> instances = api.taskInstances("muster_history", runId);
        List<AirflowDagRun> runs = api.dagRuns("muster_history", 10);

        assertThat(instances).extracting(AirflowTaskInstance::taskId, AirflowTaskInstance::mapIndex, AirflowTaskInstance::tryNumber,
                        AirflowTaskInstance::state)
                .containsExactlyInAnyOrder(tuple("first", -1, 1, "success"), tuple("shards", 0, 1, "success"),
                        tuple("shards", 1, 1, "success"), tuple("shards", 2, 1, "success"), tuple("last", -1, 1, "success"));
        assertThat(instances).allSatisfy(instance -> assertThat(instance.duration()).hasValueSatisfying(
                duration -> assertThat(duration).isPositive()));
        AirflowTaskInstance first = instances.stream().filter(instance -> instance.taskId().equals("first")).findFirst().orElseThrow();
        assertThat(first.duration()).hasValueSatisfying(duration -> assertThat(duration).isGreaterThanOrEqualTo(Duration.ofSeconds(1)));
        assertThat(runs).extracting(AirflowDagRun::runId, AirflowDagRun::state).contains(tuple(runId, "success"));
    }

    @Test
    void effectivePriorityWeightsAreThoseAirflowGivesItsTaskInstances(RealAirflow airflow) throws Exception {
        // given: a run of muster_weights; Airflow computes each task instance's weight as it creates it
        AirflowApi api = api(airflow);
        List<AirflowTask> tasks = awaitTasks(api, "muster_weights");
        AirflowRestCalls calls = new AirflowRestCalls(airflow);
        String runId = calls.trigger("muster_weights");
        Map<String, Integer> airflows = calls.priorityWeights("muster_weights", runId);

        // when
        Map<String, TaskHint> hints = new DagRunPlanner(HintSettings.DEFAULTS).plan("muster_weights/" + runId, tasks, List.of(),
                api.taskInstances("muster_weights", runId));

        // then: every rule is in the DAG, and each instance's weight is the bridge's for its task
        assertThat(tasks).extracting(task -> task.weightRule().orElse("none")).contains("downstream", "upstream", "absolute");
        assertThat(airflows.keySet()).extracting(RealAirflowApiTest::taskOf).containsOnly(
                tasks.stream().map(AirflowTask::taskId).toArray(String[]::new));
        assertThat(airflows).containsKeys("train[0]", "train[1]", "train[2]");
        Map<String, Integer> bridges = airflows.keySet().stream().collect(Collectors.toMap(Function.identity(),
                instance -> Math.toIntExact(hints.get(taskOf(instance)).priorityWeight().effective().orElseThrow())));
        assertThat(bridges).isEqualTo(airflows);
        assertThat(hints.values()).allSatisfy(hint -> assertThat(hint.priorityWeight().problems()).isEmpty());
    }

    private static String taskOf(String instance) {
        return instance.replaceFirst("\\[\\d+]$", "");
    }

    @Test
    void wrongPasswordIsRefusedByTheRealServerAndNamesTheSetting(RealAirflow airflow) {
        AirflowSettings wrong = airflow.settings().withPassword("not-the-password");

        assertThatThrownBy(() -> AirflowApis.connect(wrong).tasks("muster_diamond"))
                .isInstanceOfSatisfying(AirflowApiException.class, failure -> {
                    assertThat(failure.failure()).isEqualTo(AirflowApiException.Failure.UNAUTHORIZED);
                    assertThat(failure.setting()).isEqualTo(AirflowSettings.PASSWORD);
                })
                .hasMessageContaining("POST /auth/token").hasMessageContaining("HTTP 401");
    }

    @Test
    void theCredentialsCheckRefusesAWrongPasswordThatTheVersionDoesNotNeed(RealAirflow airflow) {
        AirflowApi wrong = AirflowApis.connect(airflow.settings().withPassword("not-the-password"));

        assertThat(wrong.version()).isEqualTo("3.3.2");
        assertThatThrownBy(wrong::checkCredentials)
                .isInstanceOfSatisfying(AirflowApiException.class, failure -> {
                    assertThat(failure.failure()).isEqualTo(AirflowApiException.Failure.UNAUTHORIZED);
                    assertThat(failure.setting()).isEqualTo(AirflowSettings.PASSWORD);
                })
                .hasMessageContaining("POST /auth/token: HTTP 401, the credentials of muster are refused");
        api(airflow).checkCredentials();
    }

    @Test
    void unknownDagIsNotFound(RealAirflow airflow) {
        assertThatThrownBy(() -> api(airflow).tasks("no_such_dag"))
                .isInstanceOfSatisfying(AirflowApiException.class,
                        failure -> assertThat(failure.failure()).isEqualTo(AirflowApiException.Failure.NOT_FOUND));
    }

    @Test
    void restApiV1OnAirflow3IsTheVersionSettingEvenOnADagsAddress(RealAirflow airflow) {
        AirflowApi v1 = AirflowApis.connect(new AirflowSettings(airflow.url(), AirflowApiVersion.V1, airflow.user(), airflow.password(),
                Optional.empty(), Duration.ofSeconds(5), Duration.ofSeconds(30), 0, Duration.ofMillis(200), Duration.ofSeconds(2)));

        assertThatThrownBy(() -> v1.tasks("muster_diamond"))
                .isInstanceOfSatisfying(AirflowApiException.class, failure -> {
                    assertThat(failure.failure()).isEqualTo(AirflowApiException.Failure.BAD_RESPONSE);
                    assertThat(failure.setting()).isEqualTo(AirflowSettings.API_VERSION);
                })
                .hasMessageContaining("HTTP 404, no REST API v1 here");
    }
}
