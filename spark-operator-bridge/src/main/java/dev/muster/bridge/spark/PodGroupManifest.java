package dev.muster.bridge.spark;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The application's PodGroup, {@code scheduling.volcano.sh/v1beta1}, as a generic resource: Spark
 * ships fabric8's typed Volcano model only in builds with {@code -Pvolcano}, and this step must run on
 * any Spark 4 distribution.
 */
final class PodGroupManifest {
    static final String API_VERSION = "scheduling.volcano.sh/v1beta1";
    static final String KIND = "PodGroup";
    /** The PodGroup name Spark's {@code VolcanoFeatureStep} uses, so either step finds the other's group. */
    static final String NAME_SUFFIX = "-podgroup";
    /** On the PodGroup: how many executors the application starts with. */
    public static final String EXPECTED_EXECUTORS = "muster.dev/spark-expected-executors";
    /** On the PodGroup: how many of them must be placed together (a gang). */
    public static final String GANG_EXECUTORS = "muster.dev/spark-gang-executors";
    /** Spark's own label with the application id, on its pods; put on the PodGroup too. */
    static final String APP_SELECTOR = "spark-app-selector";

    private PodGroupManifest() {}

    static String name(String appId) {
        return appId + NAME_SUFFIX;
    }

    /**
     * @param minMember the pods that must exist before any is placed
     * @param minResources the application's computed requests; each resource the template's {@code minResources} names takes the template's value
     */
    static GenericKubernetesResource build(String appId, String namespace, MusterConf conf, PodGroupTemplate template,
            ExecutorCount executors, int minMember, Map<String, Quantity> minResources) {
        Map<String, String> labels = new TreeMap<>(template.labels());
        labels.put(APP_SELECTOR, appId);
        Map<String, String> annotations = new TreeMap<>(template.annotations());
        annotations.put(EXPECTED_EXECUTORS, Integer.toString(executors.expected()));
        annotations.put(GANG_EXECUTORS, Integer.toString(executors.gang()));
        Map<String, Object> spec = new LinkedHashMap<>(template.spec());
        spec.put("minMember", minMember);
        Map<String, Object> resources = new TreeMap<>();
        minResources.forEach((name, quantity) -> resources.put(name, quantity.toString()));
        // a resource the template names is the user's explicit lower bound: it replaces the computed one
        template.minResources().forEach(resources::put);
        spec.put("minResources", resources);
        conf.queue().or(() -> template.string("queue")).ifPresent(queue -> spec.put("queue", queue));
        conf.priorityClassName().or(() -> template.string("priorityClassName"))
                .ifPresent(priorityClass -> spec.put("priorityClassName", priorityClass));
        GenericKubernetesResource podGroup = new GenericKubernetesResource();
        podGroup.setApiVersion(API_VERSION);
        podGroup.setKind(KIND);
        podGroup.setMetadata(new ObjectMetaBuilder().withName(name(appId)).withNamespace(namespace)
                .withLabels(labels).withAnnotations(annotations).build());
        podGroup.setAdditionalProperty("spec", spec);
        return podGroup;
    }
}
