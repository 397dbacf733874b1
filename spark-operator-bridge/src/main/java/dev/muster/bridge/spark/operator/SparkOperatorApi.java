package dev.muster.bridge.spark.operator;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The spark-operator's names, as v2.5.2 defines them: the API ({@code api/v1beta2}), the PodGroup names
 * of its batch schedulers ({@code internal/scheduler/volcano/util.go}, {@code .../kubescheduler/util.go})
 * and the label it puts on the pods it launches ({@code pkg/common/spark.go}).
 */
public final class SparkOperatorApi {
    public static final String GROUP = "sparkoperator.k8s.io";
    public static final String VERSION = "v1beta2";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "SparkApplication";
    /** The kind whose {@code spec.template} the operator makes a SparkApplication of on a cron {@code spec.schedule}. */
    public static final String SCHEDULED_KIND = "ScheduledSparkApplication";
    /** The class-path resource of the operator's CRDs (v2.5.2's SparkApplication and ScheduledSparkApplication). */
    public static final String CRDS = "/dev/muster/bridge/spark/operator/crds.yaml";
    public static final ResourceDefinitionContext SPARK_APPLICATIONS = new ResourceDefinitionContext.Builder()
            .withGroup(GROUP).withVersion(VERSION).withKind(KIND).withPlural("sparkapplications").withNamespaced(true).build();
    public static final ResourceDefinitionContext SCHEDULED_SPARK_APPLICATIONS = new ResourceDefinitionContext.Builder()
            .withGroup(GROUP).withVersion(VERSION).withKind(SCHEDULED_KIND).withPlural("scheduledsparkapplications").withNamespaced(true)
            .build();
    public static final ResourceDefinitionContext COSCHEDULING_POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.x-k8s.io").withVersion("v1alpha1").withKind("PodGroup").withPlural("podgroups").withNamespaced(true)
            .build();
    /** {@code batchScheduler} of the operator's Volcano scheduler ({@code common.VolcanoSchedulerName}). */
    public static final String VOLCANO = "volcano";
    /** On the driver and executor pods: the SparkApplication's name ({@code LabelSparkAppName}). */
    public static final String APP_NAME_LABEL = "sparkoperator.k8s.io/app-name";
    /** On the runs of a ScheduledSparkApplication: its name ({@code LabelScheduledSparkAppName}). */
    public static final String SCHEDULED_APP_NAME_LABEL = "sparkoperator.k8s.io/scheduled-app-name";
    /** On a Volcano PodGroup the bridge wrote for a scheduler-plugins one: the API group it mirrors. */
    public static final String MIRROR_OF = "muster.dev/mirror-of";

    private SparkOperatorApi() {}

    /** The Volcano PodGroup the operator makes for {@code batchScheduler: volcano}. */
    public static String volcanoPodGroupName(String application) {
        return "spark-" + application + "-pg";
    }

    /** The scheduler-plugins PodGroup the operator makes for a scheduler named in {@code --kube-scheduler-names}. */
    public static String coschedulingPodGroupName(String application) {
        return application + "-pg";
    }
}
