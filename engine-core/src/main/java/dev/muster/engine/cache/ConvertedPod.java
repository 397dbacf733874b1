package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Task;
import java.util.Optional;

/**
 * A pod read from a manifest, before it joins its job.
 *
 * @param ours the pod names one of our schedulers
 * @param groupField the annotation or label that names the pod's PodGroup, or {@link #AWAITS_GANG_FIELD}
 *     for a pod held until a bridge names its gang; empty when the pod has none and gets an automatic
 *     PodGroup of its own ({@link Task#job()} is then that group's id)
 * @param queue the queue of the automatic PodGroup ({@code scheduling.volcano.sh/queue-name})
 */
record ConvertedPod(ManifestObject object, Task task, boolean ours, Optional<String> groupField, QueueName queue) {
    static final String AWAITS_GANG_FIELD = "metadata.annotations." + SchedulingApi.GANG_ANNOTATION;

    ConvertedPod {
        requireNonNull(object, "object is null");
        requireNonNull(task, "task is null");
        requireNonNull(groupField, "groupField is null");
        requireNonNull(queue, "queue is null");
    }

    /** The pod says it is in a gang ({@code muster.dev/gang: "true"}) that no group annotation names yet. */
    boolean awaitsGang() {
        return groupField.filter(AWAITS_GANG_FIELD::equals).isPresent();
    }

    /** The pod sits on a node and is not finished, so it holds that node's resources. */
    boolean holdsNode() {
        return task.node().isPresent() && !task.status().isTerminated();
    }
}
