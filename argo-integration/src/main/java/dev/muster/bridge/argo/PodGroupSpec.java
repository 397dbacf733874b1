package dev.muster.bridge.argo;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Resources;
import java.util.Optional;

/**
 * The {@code scheduling.volcano.sh/v1beta1} PodGroup of one fan-out, owned by its Workflow.
 *
 * @param minResources {@code spec.minResources}: what its {@code minMember} pods ask for, as the template's
 *     containers request it; {@link Resources#EMPTY} when they request nothing
 * @param queue {@code spec.queue}; empty leaves the PodGroup's default ({@code default})
 * @param dagAnnotations the {@code dag} plugin's annotations ({@link DagPlan}); empty without DAG hints
 */
public record PodGroupSpec(
        String namespace,
        String name,
        String workflowName,
        String workflowUid,
        String groupNodeId,
        String template,
        int minMember,
        Resources minResources,
        Optional<String> queue,
        Optional<String> priorityClassName,
        ImmutableMap<String, String> dagAnnotations) {
    public PodGroupSpec {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(workflowName, "workflowName is null");
        requireNonNull(workflowUid, "workflowUid is null");
        requireNonNull(groupNodeId, "groupNodeId is null");
        requireNonNull(template, "template is null");
        checkArgument(minMember > 0, "podgroup %s: minMember must be positive: %s", name, minMember);
        requireNonNull(minResources, "minResources is null");
        requireNonNull(queue, "queue is null");
        requireNonNull(priorityClassName, "priorityClassName is null");
        dagAnnotations = ImmutableMap.copyOf(dagAnnotations);
    }
}
