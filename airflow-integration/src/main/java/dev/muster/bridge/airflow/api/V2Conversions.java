package dev.muster.bridge.airflow.api;

import dev.muster.bridge.airflow.generated.v2.model.DAGRunResponse;
import dev.muster.bridge.airflow.generated.v2.model.TaskInstanceResponse;
import dev.muster.bridge.airflow.generated.v2.model.TaskResponse;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/** The generated v2 models to ours; nothing generated leaves this package. */
final class V2Conversions {
    private V2Conversions() {}

    /** The v2 paths carry {@code /api/v2} themselves: the base is the server's address. */
    static String base(AirflowSettings settings) {
        String url = settings.url().toString();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    static AirflowTask task(TaskResponse task) {
        return new AirflowTask(task.getTaskId(),
                Optional.ofNullable(task.getDownstreamTaskIds()).orElse(List.of()),
                Optional.ofNullable(task.getPriorityWeight()),
                Optional.ofNullable(task.getWeightRule()),
                Optional.ofNullable(task.getPool()),
                Optional.ofNullable(task.getQueue()),
                Boolean.TRUE.equals(task.getIsMapped()),
                Optional.ofNullable(task.getOperatorName()));
    }

    static AirflowDagRun dagRun(DAGRunResponse run) {
        return new AirflowDagRun(run.getDagId(), run.getDagRunId(), run.getState() == null ? "none" : run.getState().getValue(),
                Optional.ofNullable(run.getStartDate()).map(OffsetDateTime::toInstant),
                Optional.ofNullable(run.getEndDate()).map(OffsetDateTime::toInstant));
    }

    static AirflowTaskInstance taskInstance(TaskInstanceResponse instance) {
        return new AirflowTaskInstance(instance.getTaskId(),
                Optional.ofNullable(instance.getMapIndex()).orElse(AirflowTaskInstance.NOT_MAPPED),
                Optional.ofNullable(instance.getTryNumber()).orElse(0),
                instance.getState() == null ? "none" : instance.getState().getValue(),
                seconds(instance.getDuration()),
                Optional.ofNullable(instance.getPool()));
    }

    static Optional<Duration> seconds(BigDecimal seconds) {
        return Optional.ofNullable(seconds).map(value -> Duration.ofNanos(value.movePointRight(9).longValue()));
    }
}
