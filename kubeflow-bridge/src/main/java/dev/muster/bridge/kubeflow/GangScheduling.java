package dev.muster.bridge.kubeflow;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * How the pods of a training job are marked for a gang scheduler, as training operator v1.9 marks them
 * with {@code --gang-scheduler-name} ({@code DecoratePodTemplateSpec} in
 * {@code pkg/controller.v1/control/podgroup_control.go}). A template's own {@code schedulerName} is kept.
 *
 * @param path which PodGroups the pods belong to
 * @param schedulerName the pods' {@code spec.schedulerName} when the template has none; empty for {@link Path#NONE}
 */
public record GangScheduling(Path path, String schedulerName) {
    /** No gang scheduling: the template's scheduler. */
    public static final GangScheduling NONE = new GangScheduling(Path.NONE, "");

    /** The PodGroup kinds the operator can make. */
    public enum Path {
        NONE,
        /** {@code scheduling.volcano.sh} PodGroups: annotations {@code scheduling.k8s.io/group-name} and {@code volcano.sh/task-spec}. */
        VOLCANO,
        /** {@code scheduling.x-k8s.io} PodGroups: label {@code scheduling.x-k8s.io/pod-group}. */
        SCHEDULER_PLUGINS
    }

    /** On the Volcano path: the PodGroup's name, the job's. */
    public static final String GROUP_NAME_ANNOTATION = "scheduling.k8s.io/group-name";
    /** On the Volcano path: the replica type in lower case. */
    public static final String TASK_SPEC_ANNOTATION = "volcano.sh/task-spec";
    /** On the scheduler-plugins path: the PodGroup's name, the job's. */
    public static final String POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";

    public GangScheduling {
        requireNonNull(path, "path is null");
        requireNonNull(schedulerName, "schedulerName is null");
        checkArgument((path == Path.NONE) == schedulerName.isEmpty(), "a scheduler name is needed with gang scheduling only: %s %s", path,
                schedulerName);
    }

    /** {@code --gang-scheduler-name=volcano}: the operator names scheduler {@code volcano} whatever else is configured. */
    public static GangScheduling volcano() {
        return new GangScheduling(Path.VOLCANO, "volcano");
    }

    /** {@code --gang-scheduler-name=<name>}, any name but {@code volcano}. */
    public static GangScheduling schedulerPlugins(String schedulerName) {
        return new GangScheduling(Path.SCHEDULER_PLUGINS, schedulerName);
    }
}
