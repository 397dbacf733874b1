package dev.muster.embedded;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The defaults kube-apiserver v1.34.4 gives apps/v1 workloads when it decodes them
 * ({@code pkg/apis/apps/v1/defaults.go}, {@code SetDefaults_Deployment} and {@code
 * SetDefaults_ReplicaSet}, {@code SetDefaults_StatefulSet}, and {@code SetDefaults_PodSpec} for their pod templates), and batch/v1
 * Jobs ({@link JobDefaults}). Controllers
 * read them: kube-controller-manager's deployment controller refuses a Deployment without a strategy
 * type ("unexpected deployment strategy type"), and a Deployment or ReplicaSet without replicas runs
 * one pod.
 */
final class WorkloadDefaults {
    private static final String SPEC = "spec";
    private static final String REPLICAS = "replicas";
    private static final String ROLLING_UPDATE = "RollingUpdate";
    private static final String QUARTER = "25%";

    private WorkloadDefaults() {}

    /**
     * Fills in what is absent, for the kinds whose defaults are known here; any other object is left as
     * it is.
     *
     * @param create whether the object is being created (a Job's labels are then defaulted on create)
     * @return whether the object is of such a kind (and may have changed)
     */
    static boolean apply(ObjectNode object, boolean create) {
        if (!(object.path(SPEC) instanceof ObjectNode spec)) {
            return false;
        }
        if (JobDefaults.isJob(object)) {
            JobDefaults.decode(object, spec, create);
        } else if (object.path("apiVersion").asText().equals(JobDefaults.API_VERSION) && object.path("kind").asText().equals("CronJob")) {
            JobDefaults.cronJob(spec);
            // the templates' ObjectMeta, a struct in Go, is written out even when empty
            ObjectNode jobTemplate = spec.withObjectProperty("jobTemplate");
            jobTemplate.withObjectProperty("metadata");
            jobTemplate.withObjectProperty(SPEC).withObjectProperty("template").withObjectProperty("metadata");
            if (spec.path("jobTemplate").path(SPEC).path("template").path(SPEC) instanceof ObjectNode podSpec) {
                PodDefaults.defaultSpec(podSpec);
            }
            return true;
        } else if (!object.path("apiVersion").asText().equals("apps/v1")) {
            return false;
        } else {
            switch (object.path("kind").asText()) {
                case "Deployment" -> deployment(spec);
                case "ReplicaSet" -> replicas(spec);
                case "StatefulSet" -> statefulSet(spec);
                default -> {
                    return false;
                }
            }
        }
        if (spec.path("template").path(SPEC) instanceof ObjectNode podSpec) {
            PodDefaults.defaultSpec(podSpec);
        }
        return true;
    }

    private static void deployment(ObjectNode spec) {
        replicas(spec);
        ObjectNode strategy = spec.withObjectProperty("strategy");
        if (strategy.path("type").asText("").isEmpty()) {
            strategy.put("type", ROLLING_UPDATE);
        }
        if (strategy.path("type").asText().equals(ROLLING_UPDATE)) {
            ObjectNode rollingUpdate = strategy.withObjectProperty("rollingUpdate");
            if (!rollingUpdate.hasNonNull("maxUnavailable")) {
                rollingUpdate.put("maxUnavailable", QUARTER);
            }
            if (!rollingUpdate.hasNonNull("maxSurge")) {
                rollingUpdate.put("maxSurge", QUARTER);
            }
        }
        if (!spec.hasNonNull("revisionHistoryLimit")) {
            spec.put("revisionHistoryLimit", 10);
        }
        if (!spec.hasNonNull("progressDeadlineSeconds")) {
            spec.put("progressDeadlineSeconds", 600);
        }
    }

    /** {@code SetDefaults_StatefulSet}, with v1.34's default feature gates (no {@code maxUnavailable}). */
    private static void statefulSet(ObjectNode spec) {
        if (spec.path("podManagementPolicy").asText("").isEmpty()) {
            spec.put("podManagementPolicy", "OrderedReady");
        }
        ObjectNode strategy = spec.withObjectProperty("updateStrategy");
        if (strategy.path("type").asText("").isEmpty()) {
            strategy.put("type", ROLLING_UPDATE);
            strategy.withObjectProperty("rollingUpdate");
        }
        if (strategy.path("type").asText().equals(ROLLING_UPDATE) && strategy.path("rollingUpdate") instanceof ObjectNode rollingUpdate
                && !rollingUpdate.hasNonNull("partition")) {
            rollingUpdate.put("partition", 0);
        }
        ObjectNode retention = spec.withObjectProperty("persistentVolumeClaimRetentionPolicy");
        for (String when : new String[] {"whenDeleted", "whenScaled"}) {
            if (retention.path(when).asText("").isEmpty()) {
                retention.put(when, "Retain");
            }
        }
        replicas(spec);
        if (!spec.hasNonNull("revisionHistoryLimit")) {
            spec.put("revisionHistoryLimit", 10);
        }
    }

    private static void replicas(ObjectNode spec) {
        if (!spec.hasNonNull(REPLICAS)) {
            spec.put(REPLICAS, 1);
        }
    }
}
