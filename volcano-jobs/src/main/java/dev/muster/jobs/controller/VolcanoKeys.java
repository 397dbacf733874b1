package dev.muster.jobs.controller;

/** The label and annotation keys Volcano's job controller writes, and Muster's own. */
public final class VolcanoKeys {
    public static final String JOB_NAME = "volcano.sh/job-name";
    public static final String JOB_NAMESPACE = "volcano.sh/job-namespace";
    public static final String QUEUE_NAME = "volcano.sh/queue-name";
    public static final String TASK_SPEC = "volcano.sh/task-spec";
    public static final String TASK_INDEX = "volcano.sh/task-index";
    public static final String JOB_VERSION = "volcano.sh/job-version";
    public static final String TEMPLATE_UID = "volcano.sh/template-uid";
    public static final String JOB_RETRY_COUNT = "volcano.sh/job-retry-count";
    public static final String NUMA_POLICY = "volcano.sh/numa-topology-policy";
    public static final String GROUP_NAME = "scheduling.k8s.io/group-name";
    public static final String PREEMPTABLE = "volcano.sh/preemptable";
    public static final String COOLDOWN_TIME = "volcano.sh/cooldown-time";
    public static final String REVOCABLE_ZONE = "volcano.sh/revocable-zone";
    public static final String JDB_MIN_AVAILABLE = "volcano.sh/jdb-min-available";
    public static final String JDB_MAX_UNAVAILABLE = "volcano.sh/jdb-max-unavailable";
    /** Set on a pod the controller killed, so its later events are not taken for news. */
    public static final String OUT_OF_SYNC = "volcano.sh/out-of-sync";
    /**
     * Muster's option for task {@code dependsOn}: {@code running} (Volcano's meaning, the default)
     * or {@code completed} (the parent task's minimum of pods succeeded).
     */
    public static final String DEPENDS_ON = "muster.dev/depends-on";

    private VolcanoKeys() {}
}
