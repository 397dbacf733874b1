package dev.muster.engine.framework;

import java.util.Optional;

/**
 * The per-plugin switches of Volcano's configuration ({@code enableJobOrder: false}); an unset
 * switch means enabled. Each names the extension point it gates.
 */
public enum PluginFlag {
    JOB_ORDER("enableJobOrder"),
    HIERARCHY("enableHierarchy"),
    JOB_READY("enableJobReady"),
    JOB_PIPELINED("enableJobPipelined"),
    TASK_ORDER("enableTaskOrder"),
    PREEMPTABLE("enablePreemptable"),
    RECLAIMABLE("enableReclaimable"),
    PREEMPTIVE("enablePreemptive"),
    QUEUE_ORDER("enableQueueOrder"),
    CLUSTER_ORDER("enabledClusterOrder"),
    PREDICATE("enablePredicate"),
    BEST_NODE("enableBestNode"),
    NODE_ORDER("enableNodeOrder"),
    TARGET_JOB("enableTargetJob"),
    RESERVED_NODES("enableReservedNodes"),
    JOB_ENQUEUED("enableJobEnqueued"),
    VICTIM("enabledVictim"),
    JOB_STARVING("enableJobStarving"),
    OVERUSED("enabledOverused"),
    ALLOCATABLE("enabledAllocatable"),
    HYPER_NODE_ORDER("enabledHyperNodeOrder"),
    SUB_JOB_READY("enabledSubJobReady"),
    SUB_JOB_PIPELINED("enabledSubJobPipelined"),
    SUB_JOB_ORDER("enabledSubJobOrder"),
    HYPER_NODE_GRADIENT("enabledHyperNodeGradient");

    private final String key;

    PluginFlag(String key) {
        this.key = key;
    }

    /** The key as written in the configuration. */
    public String key() {
        return key;
    }

    public static Optional<PluginFlag> fromKey(String key) {
        for (PluginFlag flag : values()) {
            if (flag.key.equals(key)) {
                return Optional.of(flag);
            }
        }
        return Optional.empty();
    }
}
