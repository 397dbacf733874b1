package dev.muster.jobs.flow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import java.util.Optional;

/**
 * One {@code spec.flows[]} entry: the JobTemplate {@code name} runs after every flow in {@code targets} completed.
 *
 * @param patch {@code patch.jobSpec}: laid over the template's spec when the flow's Job is made ({@link JobSpecPatch})
 */
public record Flow(String name, ImmutableList<String> targets, Optional<ObjectNode> patch) {
    public Flow {
        requireNonNull(name, "name is null");
        targets = ImmutableList.copyOf(targets);
        patch = requireNonNull(patch, "patch is null").map(ObjectNode::deepCopy);
    }

    public Flow(String name, ImmutableList<String> targets) {
        this(name, targets, Optional.empty());
    }

    @Override
    public Optional<ObjectNode> patch() {
        return patch.map(ObjectNode::deepCopy);
    }

    /** The spec this flow's Job gets from {@code template}: the template's, patched if the flow says so. */
    public ObjectNode jobSpec(JobTemplate template) {
        ObjectNode spec = template.specJson();
        return patch.map(value -> JobSpecPatch.apply(spec, value)).orElse(spec);
    }
}
