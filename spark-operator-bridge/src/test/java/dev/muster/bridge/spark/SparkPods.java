package dev.muster.bridge.spark;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.SecurityManager;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.k8s.KubernetesConf;
import org.apache.spark.deploy.k8s.KubernetesDriverConf;
import org.apache.spark.deploy.k8s.KubernetesExecutorConf;
import org.apache.spark.deploy.k8s.SparkPod;
import org.apache.spark.deploy.k8s.features.BasicDriverFeatureStep;
import org.apache.spark.deploy.k8s.features.BasicExecutorFeatureStep;
import org.apache.spark.deploy.k8s.submit.JavaMainAppResource;
import org.apache.spark.deploy.k8s.submit.MainAppResource;
import org.apache.spark.deploy.k8s.submit.PythonMainAppResource;
import org.apache.spark.resource.ResourceProfile;
import org.apache.spark.resource.ResourceProfile$;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark 4.2.0's own pod building, run in the test as the oracle: {@code BasicDriverFeatureStep} and
 * {@code BasicExecutorFeatureStep} make the driver and executor pods exactly as {@code spark-submit}
 * and the driver do, so what Muster predicts is compared with what Spark will create.
 */
final class SparkPods {
    static final String APP_ID = "spark-0123456789abcdef";
    static final String NAMESPACE = "spark-jobs";

    private SparkPods() {}

    static SparkConf conf(Map<String, String> settings) {
        SparkConf conf = new SparkConf(false)
                .set("spark.master", "k8s://https://127.0.0.1:6443")
                .set("spark.app.name", "muster-test")
                .set("spark.kubernetes.namespace", NAMESPACE)
                .set("spark.kubernetes.container.image", "apache/spark:4.2.0");
        settings.forEach(conf::set);
        return conf;
    }

    static MainAppResource mainResource(boolean python) {
        return python ? new PythonMainAppResource("local:///opt/job.py") : new JavaMainAppResource(Option.apply("local:///opt/job.jar"));
    }

    static KubernetesDriverConf driverConf(SparkConf conf, boolean python) {
        return KubernetesConf.createDriverConf(conf, APP_ID, mainResource(python), "dev.muster.Job", new String[0], Option.empty());
    }

    /** The driver pod Spark's basic step builds (its main container still beside the pod, as Spark hands it to later steps). */
    static SparkPod driverPod(KubernetesDriverConf conf) {
        return new BasicDriverFeatureStep(conf).configurePod(SparkPod.initialPod());
    }

    /** The conf the driver runs with: the submission's, plus the system properties Spark's driver step passes on. */
    static SparkConf driverRuntimeConf(SparkConf submitted, boolean python) {
        SparkConf runtime = submitted.clone();
        CollectionConverters.asJava(new BasicDriverFeatureStep(driverConf(submitted, python)).getAdditionalPodSystemProperties())
                .forEach(runtime::set);
        if (python) {
            runtime.set(MusterFeatureStep.RESOURCE_TYPE, "python");
        }
        return runtime;
    }

    static KubernetesExecutorConf executorConf(SparkConf driverRuntime, String executorId) {
        return KubernetesConf.createExecutorConf(driverRuntime, executorId, APP_ID, Option.empty(),
                ResourceProfile$.MODULE$.DEFAULT_RESOURCE_PROFILE_ID());
    }

    /** The container of an executor pod of the default profile, as Spark's executor step builds it. */
    static Container executorContainer(SparkConf driverRuntime) {
        // Spark caches the default profile in a static; this conf's must be the one used
        ResourceProfile profile = ResourceProfile$.MODULE$.reInitDefaultProfile(driverRuntime);
        SecurityManager security = new SecurityManager(driverRuntime, Option.empty(),
                org.apache.spark.internal.config.package$.MODULE$.AUTH_SECRET_FILE_EXECUTOR());
        return new BasicExecutorFeatureStep(executorConf(driverRuntime, "1"), security, profile)
                .configurePod(SparkPod.initialPod()).container();
    }

    /** Requests, with limit-only resources counted as requests (extended resources such as GPUs). */
    static Map<String, Quantity> effectiveRequests(Container container) {
        Map<String, Quantity> requests = new TreeMap<>();
        if (container.getResources().getLimits() != null) {
            requests.putAll(container.getResources().getLimits());
        }
        requests.putAll(container.getResources().getRequests());
        return requests;
    }
}
