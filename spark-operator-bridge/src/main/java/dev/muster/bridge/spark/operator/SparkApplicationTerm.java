package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableSet;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.binding.RetryPolicy;
import dev.muster.runtime.controller.EveryChange;
import dev.muster.runtime.controller.KeyedWorkQueue;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import dev.muster.runtime.controller.TermInformers;
import dev.muster.runtime.controller.TermThreads;
import dev.muster.runtime.informers.KubernetesResources;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One leader term of the bridge: informers on SparkApplications, on both kinds of PodGroup and on
 * Volcano's Queues, and a work queue of applications. A change to an application, to a PodGroup it
 * owns, or to a Queue queues the application; processing reads it (and, with a GET, the ConfigMap its
 * {@code spec.sparkConfigMap} names), plans and writes the plan. A change to that ConfigMap alone does
 * not queue the application: the file sizes nothing ({@link SparkDefaults}); what it warns of is
 * found when the application is next processed. Nothing outlives {@link #stop()}.
 */
final class SparkApplicationTerm implements TermController.Term {
    private static final Logger log = LoggerFactory.getLogger(SparkApplicationTerm.class);
    private static final int WORKERS = 2;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** An application in the work queue: {@code namespace/name}. */
    record ApplicationKey(String namespace, String name) {
        ApplicationKey {
            requireNonNull(namespace, "namespace is null");
            requireNonNull(name, "name is null");
        }

        String cacheKey() {
            return namespace + "/" + name;
        }
    }

    private final SharedIndexInformer<GenericKubernetesResource> applications;
    private final SharedIndexInformer<GenericKubernetesResource> volcanoPodGroups;
    private final SharedIndexInformer<GenericKubernetesResource> coschedulingPodGroups;
    private final SharedIndexInformer<GenericKubernetesResource> queues;
    private final TermInformers informers;
    private final TermThreads threads = new TermThreads("muster-spark-bridge", WORKERS);
    private final KeyedWorkQueue<ApplicationKey, String> queue;
    private final SparkApplicationWriter writer;
    private final SparkDefaultsReader defaults;

    SparkApplicationTerm(KubernetesClient client, SharedInformers shared, Clock clock) {
        requireNonNull(client, "client is null");
        requireNonNull(clock, "clock is null");
        // in the order they start: what an application's processing reads has listed before the applications
        this.informers = new TermInformers(shared, "spark bridge");
        this.queues = informers.resources(KubernetesResources.QUEUES);
        this.volcanoPodGroups = informers.resources(KubernetesResources.VOLCANO_POD_GROUPS);
        this.coschedulingPodGroups = informers.resources(SparkOperatorApi.COSCHEDULING_POD_GROUPS);
        this.applications = informers.resources(SparkOperatorApi.SPARK_APPLICATIONS);
        this.writer = new SparkApplicationWriter(client, EventRecorder.connect(client, RetryPolicy.DEFAULT, clock,
                SparkApplicationWriter.COMPONENT));
        this.defaults = new SparkDefaultsReader(client);
        this.queue = new KeyedWorkQueue<>("spark-application", (key, request) -> process(key), threads.workers(), threads.timer(),
                Duration.ofMillis(200), Duration.ofSeconds(30));
        applications.addEventHandler(EveryChange.handler(application -> queue.add(new ApplicationKey(
                application.getMetadata().getNamespace(), application.getMetadata().getName()), "application")));
        volcanoPodGroups.addEventHandler(EveryChange.handler(this::enqueueOwner));
        coschedulingPodGroups.addEventHandler(EveryChange.handler(this::enqueueOwner));
        queues.addEventHandler(EveryChange.handler(changed -> applications.getStore().list().forEach(application -> queue.add(
                new ApplicationKey(application.getMetadata().getNamespace(), application.getMetadata().getName()), "queues"))));
    }

    @Override
    public void start() throws InterruptedException {
        informers.start();
    }

    @Override
    public void stop() {
        queue.stop();
        informers.stop();
        threads.stop();
    }

    private void enqueueOwner(HasMetadata object) {
        for (OwnerReference owner : object.getMetadata().getOwnerReferences()) {
            if (SparkOperatorApi.KIND.equals(owner.getKind()) && SparkOperatorApi.API_VERSION.equals(owner.getApiVersion())) {
                queue.add(new ApplicationKey(object.getMetadata().getNamespace(), owner.getName()), "owned");
            }
        }
    }

    private void process(ApplicationKey key) {
        GenericKubernetesResource object = applications.getIndexer().getByKey(key.cacheKey());
        if (object == null) {
            // what it owns names it: the garbage collector removes it
            writer.forget(key.namespace(), key.name());
            queue.forget(key);
            return;
        }
        SparkApplicationReader.Read read = SparkApplicationReader.read(JSON.valueToTree(object));
        ImmutableSet<String> queueNames = queues.getStore().list().stream().map(q -> q.getMetadata().getName())
                .collect(ImmutableSet.toImmutableSet());
        String uid = object.getMetadata().getUid();
        Optional<PodGroupView> volcano = owned(volcanoPodGroups, key.namespace(), SparkOperatorApi.volcanoPodGroupName(key.name()), uid)
                .or(() -> owned(volcanoPodGroups, key.namespace(), SparkOperatorApi.coschedulingPodGroupName(key.name()), uid));
        Optional<PodGroupView> coscheduling = owned(coschedulingPodGroups, key.namespace(),
                SparkOperatorApi.coschedulingPodGroupName(key.name()), uid);
        // read only for an application the bridge completes: a GET per processing, not an informer on every ConfigMap
        boolean completed = !read.application().finished() && (volcano.isPresent() || coscheduling.isPresent());
        SparkDefaults sparkDefaults = read.application().sparkConfigMap().filter(unused -> completed)
                .map(name -> defaults.read(key.namespace(), name)).orElse(SparkDefaults.NONE);
        SparkApplicationPlan plan = SparkApplicationPlanner.plan(read, queueNames, volcano, coscheduling, sparkDefaults);
        writer.write(read.application(), plan);
        log.debug("application={} problems={} podGroup={} pending={}", read.application().displayName(), plan.problems().size(),
                plan.podGroup().map(SparkApplicationPlan.PodGroupSpec::name).orElse("none"), plan.pending().isPresent());
    }

    /** The PodGroup of that name if the application owns it (the operator's, or the bridge's mirror). */
    private static Optional<PodGroupView> owned(SharedIndexInformer<GenericKubernetesResource> informer, String namespace, String name,
            String uid) {
        GenericKubernetesResource podGroup = informer.getIndexer().getByKey(namespace + "/" + name);
        if (podGroup == null || podGroup.getMetadata().getOwnerReferences().stream().noneMatch(owner -> uid.equals(owner.getUid()))) {
            return Optional.empty();
        }
        return Optional.of(PodGroupView.of(JSON.valueToTree(podGroup)));
    }
}
