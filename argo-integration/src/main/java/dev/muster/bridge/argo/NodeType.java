package dev.muster.bridge.argo;

import java.util.Arrays;
import java.util.Optional;

/** The {@code type} of a node in a Workflow's {@code status.nodes} (Argo's {@code NodeType} constants). */
public enum NodeType {
    POD("Pod"),
    CONTAINER("Container"),
    STEPS("Steps"),
    STEP_GROUP("StepGroup"),
    DAG("DAG"),
    TASK_GROUP("TaskGroup"),
    RETRY("Retry"),
    SKIPPED("Skipped"),
    SUSPEND("Suspend"),
    HTTP("HTTP"),
    PLUGIN("Plugin");

    private final String argoName;

    NodeType(String argoName) {
        this.argoName = argoName;
    }

    public String argoName() {
        return argoName;
    }

    public static Optional<NodeType> fromArgo(String name) {
        return Arrays.stream(values()).filter(type -> type.argoName.equals(name)).findFirst();
    }
}
