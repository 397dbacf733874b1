package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.util.Optional;

/**
 * What the bridge reads of one SparkApplication.
 *
 * @param batchScheduler {@code spec.batchScheduler}, if set
 * @param clusterMode {@code spec.mode} is {@code cluster} (the driver is a pod of the application)
 * @param type {@code spec.type}: Scala, Java, Python or R
 * @param confs the Spark confs the operator passes to {@code spark-submit}, as its {@code buildSparkSubmitArgs} writes them
 * @param fields for each conf the operator writes from a spec field, that field (for messages)
 * @param queue {@code spec.batchSchedulerOptions.queue}
 * @param priorityClassName {@code spec.batchSchedulerOptions.priorityClassName}
 * @param userResources {@code spec.batchSchedulerOptions.resources} is set: the user's minResources, which the operator uses
 * @param driverLimits {@code spec.driver.gpu} as the limit the operator's webhook sets on the driver's container, if valid
 * @param executorLimits {@code spec.executor.gpu} as the limit the operator's webhook sets on each executor's container, if valid
 * @param sparkConfigMap {@code spec.sparkConfigMap}, if set
 * @param state {@code status.applicationState.state}, empty before the operator's first status
 * @param scheduledBy the ScheduledSparkApplication that made it, one of its runs (its owner reference)
 */
public record SparkApplication(
        String namespace,
        String name,
        String uid,
        Optional<String> batchScheduler,
        boolean clusterMode,
        String type,
        ImmutableMap<String, String> confs,
        ImmutableMap<String, String> fields,
        Optional<String> queue,
        Optional<String> priorityClassName,
        boolean userResources,
        ImmutableMap<String, Long> driverLimits,
        ImmutableMap<String, Long> executorLimits,
        Optional<String> sparkConfigMap,
        String state,
        Optional<ScheduledBy> scheduledBy) {
    public SparkApplication {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(uid, "uid is null");
        requireNonNull(batchScheduler, "batchScheduler is null");
        requireNonNull(type, "type is null");
        confs = ImmutableMap.copyOf(confs);
        fields = ImmutableMap.copyOf(fields);
        requireNonNull(queue, "queue is null");
        requireNonNull(priorityClassName, "priorityClassName is null");
        driverLimits = ImmutableMap.copyOf(driverLimits);
        executorLimits = ImmutableMap.copyOf(executorLimits);
        requireNonNull(sparkConfigMap, "sparkConfigMap is null");
        requireNonNull(state, "state is null");
        requireNonNull(scheduledBy, "scheduledBy is null");
    }

    /**
     * The ScheduledSparkApplication a run was made from: the operator's {@code createSparkApplication} gives each run
     * its name plus a timestamp, the spec of its {@code spec.template}, the label {@value SparkOperatorApi#SCHEDULED_APP_NAME_LABEL}
     * and an owner reference to it (not a controller one).
     */
    public record ScheduledBy(String name, String uid) {
        public ScheduledBy {
            requireNonNull(name, "name is null");
            requireNonNull(uid, "uid is null");
        }
    }

    public String displayName() {
        return namespace + "/" + name;
    }

    /** A Python or R application (Spark's {@code NonJVMResource}). */
    public boolean nonJvm() {
        return type.equals("Python") || type.equals("R");
    }

    public boolean python() {
        return type.equals("Python");
    }

    /** Ended: the operator's terminal states, after which nothing is scheduled for it. */
    public boolean finished() {
        return state.equals("COMPLETED") || state.equals("FAILED");
    }

    /** The spec field a conf came from, else the conf itself as a {@code spec.sparkConf} entry. */
    public String fieldOf(String confKey) {
        return fields.getOrDefault(confKey, "spec.sparkConf[" + confKey + "]");
    }
}
