package dev.muster.bridge.spark;

import static java.util.Objects.requireNonNull;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.k8s.KubernetesConf;
import org.apache.spark.deploy.k8s.KubernetesDriverConf;
import org.apache.spark.deploy.k8s.KubernetesExecutorConf;
import org.apache.spark.deploy.k8s.SparkPod;
import org.apache.spark.deploy.k8s.features.KubernetesDriverCustomFeatureConfigStep;
import org.apache.spark.deploy.k8s.features.KubernetesExecutorCustomFeatureConfigStep;
import org.apache.spark.deploy.k8s.submit.NonJVMResource;
import org.apache.spark.deploy.k8s.submit.PythonMainAppResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Muster's Spark feature step: put it in both {@code spark.kubernetes.driver.pod.featureSteps} and
 * {@code spark.kubernetes.executor.pod.featureSteps}, with {@code spark.kubernetes.scheduler.name=muster}
 * (see the module README for the whole {@code spark-submit} line).
 *
 * <p><b>Driver side</b> (in {@code spark-submit}, cluster mode): the application's PodGroup
 * {@code <appId>-podgroup}, which Spark creates before the driver pod, with {@code minMember: 1} (only
 * a running driver creates executors) and {@code minResources} = what the driver pod requests + the
 * executors it starts with ({@link ExecutorCount}), each as {@link ExecutorResources} computes it; the
 * queue and priority class from {@code spark.kubernetes.scheduler.muster.*}, over Volcano's
 * {@code podGroupTemplateFile}; and the annotations {@value PodGroupManifest#EXPECTED_EXECUTORS} and
 * {@value PodGroupManifest#GANG_EXECUTORS}. A conf it cannot use fails the submission from
 * {@code init}, before any object is created, with a {@link ConfProblem} naming the key.
 *
 * <p><b>Executor side</b> (in the driver): each executor pod gets the group annotation. In client mode,
 * where no driver-side step runs, the PodGroup is created if none exists: then it holds the executors
 * alone, with {@code minMember} = the gang executors. In cluster mode the submission made it, and the
 * executor side makes no API call.
 *
 * <p>Spark makes one instance per pod it builds, on its own thread; an instance is not thread-safe.
 */
public final class MusterFeatureStep implements KubernetesDriverCustomFeatureConfigStep, KubernetesExecutorCustomFeatureConfigStep {
    /** Volcano's {@code KubeGroupNameAnnotationKey}, which Spark's {@code VolcanoFeatureStep} also writes. */
    public static final String GROUP_NAME_ANNOTATION = "scheduling.k8s.io/group-name";
    /** Spark's {@code APP_RESOURCE_TYPE}: {@code python} for a PySpark application. */
    static final String RESOURCE_TYPE = "spark.kubernetes.resource.type";
    static final String DEPLOY_MODE = "spark.submit.deployMode";

    private static final Logger log = LoggerFactory.getLogger(MusterFeatureStep.class);

    private final BiFunction<SparkConf, String, KubernetesClient> connect;
    private final Consumer<Runnable> atExit;
    private KubernetesConf conf;
    private boolean driver;
    private boolean clusterMode;
    private MusterConf muster;
    private PodGroupTemplate template;
    private ExecutorCount executors;
    private ExecutorResources perExecutor;
    private ApplicationResources driverRequests;

    /** The constructor Spark calls. */
    public MusterFeatureStep() {
        this(KubernetesAccess::connect, cleanUp -> Runtime.getRuntime().addShutdownHook(new Thread(cleanUp, "muster-podgroup-cleanup")));
    }

    MusterFeatureStep(BiFunction<SparkConf, String, KubernetesClient> connect) {
        this(connect, cleanUp -> { });
    }

    /**
     * @param atExit registers what runs when the driver's JVM ends (client mode: deleting the PodGroup the
     *     step made, which nothing owns)
     */
    MusterFeatureStep(BiFunction<SparkConf, String, KubernetesClient> connect, Consumer<Runnable> atExit) {
        this.connect = requireNonNull(connect, "connect is null");
        this.atExit = requireNonNull(atExit, "atExit is null");
    }

    @Override
    public void init(KubernetesDriverConf config) {
        boolean nonJvm = config.mainAppResource() instanceof NonJVMResource;
        boolean python = config.mainAppResource() instanceof PythonMainAppResource || isPython(config);
        // BasicDriverFeatureStep hands the executors this factor as spark.kubernetes.memoryOverheadFactor
        read(config, true, nonJvm ? ExecutorResources.NON_JVM_FACTOR : ExecutorResources.JVM_FACTOR, python);
        Optional<Integer> minMember = template.minMember();
        if (minMember.isPresent() && minMember.get() > 1) {
            throw new ConfProblem(muster.templateKey(), "spec.minMember " + minMember.get() + " can never be met in cluster mode: "
                    + "only the driver exists until it runs, and only a running driver creates executors; leave it out (Muster "
                    + "uses 1 and reads " + ExecutorCount.GANG_KEY + " for the executors)");
        }
    }

    @Override
    public void init(KubernetesExecutorConf config) {
        read(config, false, ExecutorResources.JVM_FACTOR, isPython(config));
    }

    private void read(KubernetesConf config, boolean driverSide, double kubernetesFactor, boolean python) {
        this.conf = config;
        this.driver = driverSide;
        // in cluster mode the submission made the group before the driver pod; the driver needs no rights on PodGroups
        this.clusterMode = config.sparkConf().get(DEPLOY_MODE, "client").equals("cluster");
        SparkConfReader reader = new SparkConfReader(new SparkConfSource(config.sparkConf()));
        muster = MusterConf.read(reader);
        template = muster.template().map(file -> PodGroupTemplate.read(muster.templateKey(), file)).orElse(PodGroupTemplate.EMPTY);
        executors = ExecutorCount.read(reader);
        perExecutor = ExecutorResources.read(reader, kubernetesFactor, python);
    }

    private static boolean isPython(KubernetesConf config) {
        return config.getOption(RESOURCE_TYPE).exists("python"::equals);
    }

    @Override
    public SparkPod configurePod(SparkPod pod) {
        requireNonNull(conf, "configurePod before init");
        Pod annotated = new PodBuilder(pod.pod()).editOrNewMetadata()
                .addToAnnotations(GROUP_NAME_ANNOTATION, PodGroupManifest.name(conf.appId()))
                .endMetadata().build();
        if (driver) {
            // Spark runs this after its own steps, so the pod carries the driver's final requests
            driverRequests = new ApplicationResources().addPod(annotated, pod.container());
        } else if (!clusterMode) {
            ensurePodGroup();
        }
        return new SparkPod(annotated, pod.container());
    }

    @Override
    public Seq<HasMetadata> getAdditionalPreKubernetesResources() {
        if (!driver) {
            return CollectionConverters.asScala(List.<HasMetadata>of()).toSeq();
        }
        requireNonNull(driverRequests, "getAdditionalPreKubernetesResources before configurePod");
        if (muster.queue().isPresent()) {
            try (KubernetesClient client = connect.apply(conf.sparkConf(), conf.namespace())) {
                checkQueue(client);
            }
        }
        Map<String, io.fabric8.kubernetes.api.model.Quantity> minResources = driverRequests
                .addExecutors(perExecutor, executors.expected()).toQuantities();
        GenericKubernetesResource podGroup = PodGroupManifest.build(conf.appId(), conf.namespace(), muster, template, executors,
                1, minResources);
        log.info("app={} podGroup={}/{} minResources={} executors expected={} gang={}", conf.appId(), conf.namespace(),
                podGroup.getMetadata().getName(), minResources, executors.expected(), executors.gang());
        return CollectionConverters.asScala(List.<HasMetadata>of(podGroup)).toSeq();
    }

    /** The PodGroup the executor side creates when none exists (client mode): the executors alone. */
    GenericKubernetesResource executorPodGroup() {
        int minMember = template.minMember().orElse(Math.max(1, executors.gang()));
        Map<String, io.fabric8.kubernetes.api.model.Quantity> minResources = new ApplicationResources()
                .addExecutors(perExecutor, executors.expected()).toQuantities();
        return PodGroupManifest.build(conf.appId(), conf.namespace(), muster, template, executors, minMember, minResources);
    }

    private void ensurePodGroup() {
        GenericKubernetesResource podGroup = executorPodGroup();
        try (KubernetesClient client = connect.apply(conf.sparkConf(), conf.namespace())) {
            // client mode has no driver-side step: the queue is checked before the first executor pod exists
            checkQueue(client);
            if (KubernetesAccess.createIfAbsent(client, podGroup)) {
                // no driver pod owns it in client mode, and a PodGroup left behind still holds its queue's room
                atExit.accept(() -> deletePodGroup(podGroup));
                log.info("app={} created podGroup={}/{} for its executors (no driver-side step made one: client mode) minMember={} "
                        + "spec={}", conf.appId(), conf.namespace(), podGroup.getMetadata().getName(),
                        ((Map<?, ?>) podGroup.getAdditionalProperties().get("spec")).get("minMember"),
                        podGroup.getAdditionalProperties().get("spec"));
            }
        } catch (ConfProblem e) {
            throw e;
        } catch (RuntimeException e) {
            // an executor naming a PodGroup that does not exist would wait for ever: fail its creation instead
            throw new IllegalStateException("app " + conf.appId() + ": cannot create PodGroup " + conf.namespace() + "/"
                    + podGroup.getMetadata().getName() + " for its executors: " + e.getMessage(), e);
        }
    }

    private void deletePodGroup(GenericKubernetesResource podGroup) {
        try (KubernetesClient client = connect.apply(conf.sparkConf(), conf.namespace())) {
            client.genericKubernetesResources(KubernetesAccess.PODGROUPS).inNamespace(conf.namespace())
                    .withName(podGroup.getMetadata().getName()).delete();
            log.info("app={} deleted podGroup={}/{} as the driver ends", conf.appId(), conf.namespace(), podGroup.getMetadata().getName());
        } catch (RuntimeException e) {
            log.warn("app={} cannot delete podGroup={}/{} as the driver ends: {}", conf.appId(), conf.namespace(),
                    podGroup.getMetadata().getName(), e.toString());
        }
    }

    private void checkQueue(KubernetesClient client) {
        if (muster.queue().isEmpty()) {
            return;
        }
        String queue = muster.queue().get();
        Optional<Boolean> exists = KubernetesAccess.queueExists(client, queue);
        if (exists.isEmpty()) {
            log.warn("app={} queue={}: cannot tell whether the Queue exists (no Queue CRD served, or no right to read it)",
                    conf.appId(), queue);
        } else if (!exists.get()) {
            throw new ConfProblem(MusterConf.QUEUE, "no Volcano Queue '" + queue + "' exists in the cluster");
        }
    }
}
