package dev.muster.bridge.airflow.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.muster.bridge.airflow.api.AirflowApi;
import dev.muster.bridge.airflow.api.AirflowApiException;
import dev.muster.bridge.airflow.api.AirflowApis;
import dev.muster.bridge.airflow.api.AirflowSettings;
import dev.muster.bridge.airflow.api.AirflowTask;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Muster's generated v1 client, basic auth, against the real Airflow 2.11.2 standalone. */
@WithRealAirflow(peer = "airflow2", dags = "airflow2/dags")
class RealAirflow2ApiTest {
    private static final Optional<String> DOWNSTREAM = Optional.of("downstream");

    @Test
    void readsVersionAndTheDiamondsTaskGraph(RealAirflow airflow) {
        AirflowApi api = AirflowApis.connect(airflow.settings());

        List<AirflowTask> tasks = Awaitility.await("muster_diamond2 parsed").atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1)).ignoreException(AirflowApiException.class)
                .until(() -> api.tasks("muster_diamond2"), found -> !found.isEmpty());
        Map<String, AirflowTask> byId = tasks.stream().collect(Collectors.toMap(AirflowTask::taskId, Function.identity()));

        assertThat(api.version()).isEqualTo("2.11.2");
        assertThat(byId.get("extract").downstreamTaskIds()).containsExactlyInAnyOrder("clean", "features");
        assertThat(byId.get("train").downstreamTaskIds()).containsExactly("publish");
        assertThat(byId.values()).extracting(AirflowTask::taskId, task -> task.priorityWeight().orElseThrow().intValueExact(),
                        AirflowTask::weightRule, AirflowTask::mapped)
                .containsExactlyInAnyOrder(tuple("extract", 3, DOWNSTREAM, false), tuple("clean", 1, DOWNSTREAM, false),
                        tuple("features", 2, DOWNSTREAM, false), tuple("train", 4, DOWNSTREAM, true), tuple("publish", 1, DOWNSTREAM, false));
        assertThat(byId.get("extract").queue()).contains("etl");
        assertThat(byId.get("extract").pool()).contains("default_pool");
        assertThat(api.dagRuns("muster_diamond2", 10)).isEmpty();
    }

    @Test
    void wrongPasswordIsRefusedAndNamesTheSetting(RealAirflow airflow) {
        AirflowSettings wrong = airflow.settings().withPassword("not-the-password");

        assertThatThrownBy(() -> AirflowApis.connect(wrong).tasks("muster_diamond2"))
                .isInstanceOfSatisfying(AirflowApiException.class, failure -> {
                    assertThat(failure.failure()).isEqualTo(AirflowApiException.Failure.UNAUTHORIZED);
                    assertThat(failure.setting()).isEqualTo(AirflowSettings.PASSWORD);
                })
                .hasMessageContaining("GET /api/v1/dags/muster_diamond2/tasks");
    }

    @Test
    void theCredentialsCheckRefusesAWrongPasswordThatTheVersionDoesNotNeed(RealAirflow airflow) {
        AirflowApi wrong = AirflowApis.connect(airflow.settings().withPassword("not-the-password"));

        assertThat(wrong.version()).isEqualTo("2.11.2");
        assertThatThrownBy(wrong::checkCredentials)
                .isInstanceOfSatisfying(AirflowApiException.class, failure -> {
                    assertThat(failure.failure()).isEqualTo(AirflowApiException.Failure.UNAUTHORIZED);
                    assertThat(failure.setting()).isEqualTo(AirflowSettings.PASSWORD);
                })
                .hasMessageContaining("GET /api/v1/dags/~/dagRuns?limit=1: HTTP 403");
        AirflowApis.connect(airflow.settings()).checkCredentials();
    }

    @Test
    void unknownDagIsNotFound(RealAirflow airflow) {
        assertThatThrownBy(() -> AirflowApis.connect(airflow.settings()).tasks("no_such_dag"))
                .isInstanceOfSatisfying(AirflowApiException.class,
                        failure -> assertThat(failure.failure()).isEqualTo(AirflowApiException.Failure.NOT_FOUND));
    }
}
