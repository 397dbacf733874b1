package dev.muster.bridge.argo;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds a Workflow's fan-outs in its {@code status.nodes}. Argo makes a StepGroup node for each group of
 * parallel steps (one step expanded by {@code withItems} or {@code withParam}, or several steps listed
 * together) and a TaskGroup node for a DAG task so expanded; their children are the expanded steps or
 * tasks: a Pod node each, or a Retry node above one Pod node per attempt when the template retries.
 * Children of one group that run different templates make one fan-out per template; a child that is
 * not a pod (a nested steps or DAG template, a suspend, a skipped step) is no member.
 */
public final class FanOuts {
    private FanOuts() {}

    /** The fan-outs in the order the status lists their group nodes. */
    public static ImmutableList<FanOut> of(Workflow workflow) {
        ImmutableList.Builder<FanOut> fanOuts = ImmutableList.builder();
        for (WorkflowNode group : workflow.nodes().values()) {
            if (group.type() != NodeType.STEP_GROUP && group.type() != NodeType.TASK_GROUP) {
                continue;
            }
            Map<String, List<FanOut.Member>> byTemplate = new LinkedHashMap<>();
            for (String childId : group.children()) {
                workflow.node(childId)
                        .flatMap(child -> member(workflow, child))
                        .ifPresent(member -> byTemplate.computeIfAbsent(workflow.node(childId).orElseThrow().templateName(),
                                ignored -> new ArrayList<>()).add(member));
            }
            byTemplate.forEach((template, members) -> fanOuts.add(new FanOut(group.id(), group.name(), template, ImmutableList.copyOf(members))));
        }
        return fanOuts.build();
    }

    private static Optional<FanOut.Member> member(Workflow workflow, WorkflowNode child) {
        if (child.templateName().isEmpty()) {
            return Optional.empty();
        }
        return switch (child.type()) {
            case POD -> Optional.of(new FanOut.Member(child.id(), ImmutableList.of(child.id())));
            case RETRY -> Optional.of(new FanOut.Member(child.id(), child.children().stream()
                    .filter(id -> workflow.node(id).map(attempt -> attempt.type() == NodeType.POD).orElse(false))
                    .collect(ImmutableList.toImmutableList())));
            case CONTAINER, STEPS, STEP_GROUP, DAG, TASK_GROUP, SKIPPED, SUSPEND, HTTP, PLUGIN -> Optional.empty();
        };
    }
}
