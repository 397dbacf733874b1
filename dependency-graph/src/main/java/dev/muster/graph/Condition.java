package dev.muster.graph;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Sets;

/**
 * What an edge needs from its parent: the parent states that satisfy it. The condition is met while
 * the parent is in one of {@link #states()}, and can never be met once the parent is in a final state
 * outside them.
 *
 * <p>The named conditions cover the workflow systems Muster reads:
 * <ul>
 *   <li>{@link #RUNNING}: Volcano {@code Job} {@code dependsOn}, a launch order;
 *   <li>{@link #SUCCEEDED}: Volcano {@code JobFlow}, Argo {@code a.Succeeded}, Airflow {@code all_success};
 *   <li>{@link #FAILED}: Argo {@code a.Failed}, Airflow {@code all_failed} and {@code one_failed};
 *   <li>{@link #COMPLETED}: either outcome, Slurm {@code afterany};
 *   <li>{@link #SUCCEEDED_OR_SKIPPED}: Argo's {@code dependencies}, Airflow {@code none_failed};
 *   <li>{@link #DONE}: any final state, Airflow {@code all_done}.
 * </ul>
 * Other sets come from {@link #anyOf}, for expressions such as Argo's {@code a.Failed || a.Skipped}.
 */
public record Condition(ImmutableSet<NodeState> states) {
    /** The parent is running or has already succeeded. */
    public static final Condition RUNNING = anyOf(NodeState.RUNNING, NodeState.SUCCEEDED);
    public static final Condition SUCCEEDED = anyOf(NodeState.SUCCEEDED);
    public static final Condition FAILED = anyOf(NodeState.FAILED);
    /** The parent ran to an end, successful or not. */
    public static final Condition COMPLETED = anyOf(NodeState.SUCCEEDED, NodeState.FAILED);
    public static final Condition SUCCEEDED_OR_SKIPPED = anyOf(NodeState.SUCCEEDED, NodeState.SKIPPED);
    /** The parent is in any final state, skipped included. */
    public static final Condition DONE = anyOf(NodeState.SUCCEEDED, NodeState.FAILED, NodeState.SKIPPED);

    public Condition {
        requireNonNull(states, "states is null");
        checkArgument(!states.isEmpty(), "a condition needs at least one state");
        checkArgument(!states.contains(NodeState.PENDING), "a condition cannot wait for pending: %s", states);
        states = Sets.immutableEnumSet(states);
    }

    public static Condition anyOf(NodeState first, NodeState... rest) {
        return new Condition(Sets.immutableEnumSet(first, rest));
    }

    /** Whether a parent in {@code parentState} meets this condition now. */
    public boolean isMetBy(NodeState parentState) {
        return states.contains(parentState);
    }

    /** Whether a parent in {@code parentState} meets this condition now or may meet it later. */
    public boolean canBeMetFrom(NodeState parentState) {
        return isMetBy(parentState) || states.stream().anyMatch(parentState::canBecome);
    }

    /** The name used in messages: {@code succeeded}, or {@code failed|skipped} for other sets. */
    @Override
    public String toString() {
        if (equals(RUNNING)) {
            return "running";
        }
        if (equals(COMPLETED)) {
            return "completed";
        }
        if (equals(DONE)) {
            return "done";
        }
        return states.stream().map(NodeState::displayName).collect(joining("|"));
    }
}
