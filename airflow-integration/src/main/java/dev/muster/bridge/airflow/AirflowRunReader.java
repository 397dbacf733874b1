package dev.muster.bridge.airflow;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.airflow.api.AirflowApi;
import dev.muster.bridge.airflow.api.AirflowAvailability;
import dev.muster.bridge.airflow.api.AirflowDagRun;
import dev.muster.bridge.airflow.api.AirflowTask;
import dev.muster.bridge.airflow.api.AirflowTaskInstance;
import dev.muster.bridge.airflow.hints.DagRunPlanner;
import dev.muster.bridge.airflow.hints.HintSettings;
import dev.muster.bridge.airflow.hints.TaskHint;
import dev.muster.bridge.airflow.pods.SafeLabelValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what the hints of one DAG run need through the API (the DAG's tasks, its latest runs, the
 * task instances of this run and of earlier successful ones) and plans them. Empty when the API fails
 * (reported by {@link AirflowAvailability}) or does not know the DAG or the run: the run's pods are
 * then scheduled as plain pods. A problem with a task's priority weight is logged once (per term) and
 * costs only that weight. Called on the bridge's polling thread; not thread-safe.
 */
final class AirflowRunReader {
    private static final Logger log = LoggerFactory.getLogger(AirflowRunReader.class);
    private static final int RUNS_LOOKED_AT = 25;

    /** The hints of one run, and its real run id (the pods carry only its label). */
    record RunHints(String runId, Map<String, TaskHint> tasks) {
        RunHints {
            requireNonNull(runId, "runId is null");
            tasks = ImmutableMap.copyOf(tasks);
        }
    }

    private final AirflowApi api;
    private final AirflowAvailability availability;
    private final HintSettings settings;
    private final DagRunPlanner planner;
    // the weight problems already logged: the same DAG is read every poll
    private final Set<String> warned = new HashSet<>();

    AirflowRunReader(AirflowApi api, AirflowAvailability availability, HintSettings settings) {
        this.api = requireNonNull(api, "api is null");
        this.availability = requireNonNull(availability, "availability is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.planner = new DagRunPlanner(settings);
    }

    /**
     * Airflow's version, then the credentials proven ({@link AirflowApi#checkCredentials()}): read when a
     * term starts, so that a wrong address, TLS trust, API version, user or password is reported then,
     * naming its setting, rather than when a pod first needs hints. Empty while any of them is wrong.
     */
    Optional<String> check() {
        return availability.read("Airflow's version and credentials", () -> {
            String version = api.version();
            api.checkCredentials();
            return version;
        });
    }

    Optional<RunHints> read(String dagId, String runLabel) {
        Optional<List<AirflowTask>> tasks = availability.read("DAG " + dagId, () -> api.tasks(dagId));
        Optional<List<AirflowDagRun>> runs = tasks.flatMap(found -> availability.read("runs of DAG " + dagId,
                () -> api.dagRuns(dagId, RUNS_LOOKED_AT)));
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        Optional<AirflowDagRun> run = runs.get().stream().filter(candidate -> SafeLabelValue.of(candidate.runId()).equals(runLabel)).findFirst();
        if (run.isEmpty()) {
            log.debug("DAG {}: no run among its {} latest has the pods' run_id label {}; its pods are scheduled as plain pods", dagId,
                    runs.get().size(), runLabel);
            return Optional.empty();
        }
        List<List<AirflowTaskInstance>> history = new ArrayList<>();
        for (AirflowDagRun earlier : runs.get()) {
            if (history.size() >= settings.historyRuns()) {
                break;
            }
            if (!earlier.runId().equals(run.get().runId()) && earlier.state().equals("success")) {
                availability.read("task instances of " + dagId + "/" + earlier.runId(), () -> api.taskInstances(dagId, earlier.runId()))
                        .ifPresent(history::add);
            }
        }
        Optional<List<AirflowTaskInstance>> current = availability.read("task instances of " + dagId + "/" + run.get().runId(),
                () -> api.taskInstances(dagId, run.get().runId()));
        if (current.isEmpty()) {
            return Optional.empty();
        }
        try {
            Map<String, TaskHint> hints = planner.plan(dagId + "/" + run.get().runId(), tasks.get(), history, current.get());
            hints.values().stream().flatMap(hint -> hint.priorityWeight().problems().stream()).filter(warned::add)
                    .forEach(problem -> log.warn("{}", problem));
            return Optional.of(new RunHints(run.get().runId(), hints));
        } catch (IllegalArgumentException e) {
            log.warn("{}; its pods are scheduled as plain pods", e.getMessage());
            return Optional.empty();
        }
    }
}
