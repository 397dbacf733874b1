package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.runtime.controller.ObjectKey;
import java.time.Instant;
import java.util.Optional;

/**
 * What admission reads of one Workflow.
 *
 * @param admit its {@link AdmissionAnnotations#ADMIT}: empty when absent or not a boolean
 * @param queue its queue (see {@link AdmissionAnnotations#QUEUE}); empty when its templates name several
 * @param priorityClass {@code spec.podPriorityClassName}, or empty text
 * @param suspended {@code spec.suspend} is true
 * @param started a pod of it was ever created ({@code status.nodes} has a Pod node)
 * @param admitted it carries {@link AdmissionAnnotations#ADMITTED}
 * @param problems what is wrong with the workflow's admission annotations, each naming the field and the value: a workflow
 *     with problems asked for admission and cannot have it
 */
public record AdmissionRequest(
        ObjectKey key,
        String uid,
        Instant created,
        Optional<Boolean> admit,
        Optional<String> queue,
        String priorityClass,
        boolean suspended,
        boolean started,
        boolean admitted,
        boolean finished,
        WorkflowStages stages,
        ImmutableList<String> problems) {
    public AdmissionRequest {
        requireNonNull(key, "key is null");
        requireNonNull(uid, "uid is null");
        requireNonNull(created, "created is null");
        requireNonNull(admit, "admit is null");
        requireNonNull(queue, "queue is null");
        requireNonNull(priorityClass, "priorityClass is null");
        requireNonNull(stages, "stages is null");
        problems = ImmutableList.copyOf(problems);
    }
}
