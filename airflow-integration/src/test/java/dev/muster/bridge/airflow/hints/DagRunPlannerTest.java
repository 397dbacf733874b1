package dev.muster.bridge.airflow.hints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.bridge.airflow.api.AirflowTask;
import dev.muster.bridge.airflow.api.AirflowTaskInstance;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The diamond of {@code airflow/dags/muster_diamond.py}: extract -> (clean, features) -> train[3] -> publish. */
class DagRunPlannerTest {
    private static final String DAG = "muster_diamond/manual__1";

    private static AirflowTask task(String id, double weight, boolean mapped, String... downstream) {
        return new AirflowTask(id, List.of(downstream), Optional.of(BigDecimal.valueOf(weight)), Optional.of("downstream"),
                Optional.of("default_pool"), Optional.of("default"), mapped,
                Optional.of("KubernetesPodOperator"));
    }

    private static final List<AirflowTask> DIAMOND = List.of(
            task("extract", 3, false, "clean", "features"),
            task("clean", 1, false, "train"),
            task("features", 2, false, "train"),
            task("train", 4, true, "publish"),
            task("publish", 1, false));

    private static AirflowTaskInstance done(String task, int mapIndex, long seconds) {
        return new AirflowTaskInstance(task, mapIndex, 1, "success", Optional.of(Duration.ofSeconds(seconds)), Optional.of("default_pool"));
    }

    private static AirflowTaskInstance pending(String task, int mapIndex, String state) {
        return new AirflowTaskInstance(task, mapIndex, 1, state, Optional.empty(), Optional.of("default_pool"));
    }

    private static final List<AirflowTaskInstance> EARLIER_RUN = List.of(done("extract", -1, 4), done("clean", -1, 2),
            done("features", -1, 6), done("train", 0, 7), done("train", 1, 8), done("train", 2, 6), done("publish", -1, 1));

    @Test
    void remainingPathIsTheSlowestChainOfEstimatesFromEarlierRuns() {
        Map<String, TaskHint> hints = new DagRunPlanner(HintSettings.DEFAULTS).plan(DAG, DIAMOND, List.of(EARLIER_RUN), List.of());

        // train: its slowest map index, 8 s; publish 1 s
        assertThat(hints.get("publish").remainingPath()).isEqualTo(Duration.ofSeconds(1));
        assertThat(hints.get("train").remainingPath()).isEqualTo(Duration.ofSeconds(9));
        assertThat(hints.get("clean").remainingPath()).isEqualTo(Duration.ofSeconds(11));
        assertThat(hints.get("features").remainingPath()).isEqualTo(Duration.ofSeconds(15));
        assertThat(hints.get("extract").remainingPath()).isEqualTo(Duration.ofSeconds(19));
    }

    @Test
    void finishedTasksCountZeroAndRunningParentsAreWaitedOn() {
        List<AirflowTaskInstance> current = List.of(done("extract", -1, 5), done("clean", -1, 2), pending("features", -1, "running"),
                pending("train", 0, "none"), pending("train", 1, "none"), pending("train", 2, "none"), pending("publish", -1, "none"));

        Map<String, TaskHint> hints = new DagRunPlanner(HintSettings.DEFAULTS).plan(DAG, DIAMOND, List.of(EARLIER_RUN), current);

        assertThat(hints.get("extract").remainingPath()).isEqualTo(Duration.ofSeconds(15));
        assertThat(hints.get("clean").remainingPath()).isEqualTo(Duration.ofSeconds(9));
        assertThat(hints.get("train").waitingOn()).containsExactly("features");
        assertThat(hints.get("train").mapCount()).isEqualTo(3);
        assertThat(hints.get("train").mapped()).isTrue();
        assertThat(hints.get("features").waitingOn()).isEmpty();
        // features: its own 2, train's 4 and publish's 1
        assertThat(hints.get("features").priorityWeight().effective()).hasValue(7);
    }

    @Test
    void medianOfEarlierRunsAndTheDefaultWithoutHistory() {
        List<AirflowTaskInstance> slow = List.of(done("publish", -1, 30));
        List<AirflowTaskInstance> fast = List.of(done("publish", -1, 2));
        List<AirflowTaskInstance> failed = List.of(new AirflowTaskInstance("publish", -1, 2, "failed", Optional.of(Duration.ofSeconds(99)),
                Optional.empty()));
        HintSettings settings = new HintSettings(Duration.ofSeconds(42), 5, Map.of());

        Map<String, TaskHint> hints = new DagRunPlanner(settings).plan(DAG, DIAMOND, List.of(slow, EARLIER_RUN, fast, failed), List.of());

        assertThat(hints.get("publish").remainingPath()).isEqualTo(Duration.ofSeconds(2));
        assertThat(new DagRunPlanner(settings).plan(DAG, DIAMOND, List.of(), List.of()).get("extract").remainingPath())
                .isEqualTo(Duration.ofSeconds(42 * 4));
    }

    @Test
    void poolOrQueueMapsToAMusterQueue() {
        HintSettings settings = new HintSettings(Duration.ofSeconds(1), 5, Map.of("pool:default_pool", "batch", "queue:etl", "etl"));
        List<AirflowTask> tasks = List.of(new AirflowTask("extract", List.of(), Optional.of(BigDecimal.ONE), Optional.empty(),
                Optional.of("other"), Optional.of("etl"), false,
                Optional.empty()), task("publish", 1, false));

        Map<String, TaskHint> hints = new DagRunPlanner(settings).plan(DAG, tasks, List.of(), List.of());

        assertThat(hints.get("extract").queue()).contains("etl");
        assertThat(hints.get("publish").queue()).contains("batch");
        assertThat(new DagRunPlanner(HintSettings.DEFAULTS).plan(DAG, tasks, List.of(), List.of()).get("publish").queue()).isEmpty();
    }

    @Test
    void downstreamTaskTheDagDoesNotListNamesTheDag() {
        List<AirflowTask> broken = List.of(task("extract", 1, false, "ghost"));

        assertThatThrownBy(() -> new DagRunPlanner(HintSettings.DEFAULTS).plan(DAG, broken, List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DAG muster_diamond/manual__1").hasMessageContaining("ghost");
    }
}
