package dev.muster.bridge.argo;

import dev.muster.graph.NodeState;
import java.util.Arrays;
import java.util.Optional;

/**
 * A result a DAG task's {@code depends} can name, {@code A.Failed} (Argo's {@code TaskResult} constants,
 * {@code docs/enhanced-depends-logic.md}). {@link #ANY_SUCCEEDED} and {@link #ALL_FAILED} are for a task
 * expanded by {@code withItems} or {@code withParam}.
 */
public enum TaskResult {
    SUCCEEDED("Succeeded", NodeState.SUCCEEDED),
    /** The task exited with a non-zero code. */
    FAILED("Failed", NodeState.FAILED),
    /** The task had an error other than a non-zero exit code. */
    ERRORED("Errored", NodeState.FAILED),
    /** The task's {@code when} was false. */
    SKIPPED("Skipped", NodeState.SKIPPED),
    /** The task's own {@code depends} was false. */
    OMITTED("Omitted", NodeState.SKIPPED),
    /** The task is a daemon that is no longer pending. */
    DAEMONED("Daemoned", NodeState.RUNNING),
    ANY_SUCCEEDED("AnySucceeded", NodeState.SUCCEEDED),
    ALL_FAILED("AllFailed", NodeState.FAILED);

    private final String argoName;
    private final NodeState state;

    TaskResult(String argoName, NodeState state) {
        this.argoName = argoName;
        this.state = state;
    }

    public String argoName() {
        return argoName;
    }

    /** The dependency graph's nearest state: Argo's finer results fold into succeeded, failed, skipped or running. */
    public NodeState state() {
        return state;
    }

    public static Optional<TaskResult> fromArgo(String name) {
        return Arrays.stream(values()).filter(result -> result.argoName.equals(name)).findFirst();
    }
}
