package dev.muster.bridge.airflow.api;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * One task of a DAG as the API describes it: its downstream tasks, its {@code priority_weight}
 * (the task's own, before its {@code weight_rule} sums it; empty when the API gave none), its
 * {@code weight_rule} as the API spells it, its pool and queue, and whether it is mapped ({@code expand}).
 */
public record AirflowTask(
        String taskId,
        List<String> downstreamTaskIds,
        Optional<BigDecimal> priorityWeight,
        Optional<String> weightRule,
        Optional<String> pool,
        Optional<String> queue,
        boolean mapped,
        Optional<String> operatorName) {
    public AirflowTask {
        requireNonNull(taskId, "taskId is null");
        checkArgument(!taskId.isBlank(), "taskId is blank");
        downstreamTaskIds = ImmutableList.copyOf(downstreamTaskIds);
        requireNonNull(priorityWeight, "priorityWeight is null");
        requireNonNull(weightRule, "weightRule is null");
        requireNonNull(pool, "pool is null");
        requireNonNull(queue, "queue is null");
        requireNonNull(operatorName, "operatorName is null");
    }
}
