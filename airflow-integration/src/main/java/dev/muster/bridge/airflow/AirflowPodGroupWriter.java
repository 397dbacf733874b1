package dev.muster.bridge.airflow;

import static java.util.Objects.requireNonNull;

import dev.muster.bridge.airflow.pods.AirflowPodGroups;
import dev.muster.engine.plugins.dag.DagAnnotations;
import dev.muster.runtime.binding.EventRecorder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates or corrects the {@code scheduling.volcano.sh/v1beta1} PodGroup of a plan, owned by its pods so
 * the garbage collector deletes it with the last of them. A write that fails is logged and tried again
 * at the next poll.
 */
final class AirflowPodGroupWriter {
    static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups").withNamespaced(true)
            .build();
    private static final Logger log = LoggerFactory.getLogger(AirflowPodGroupWriter.class);

    /** The {@code source.component} of the bridge's events. */
    static final String COMPONENT = "muster-airflow-bridge";
    /** The reason of the event that says which Airflow DAG, run and task a PodGroup's pods run. */
    static final String AIRFLOW_TASK = "AirflowTask";

    private final KubernetesClient client;
    private final EventRecorder events;

    AirflowPodGroupWriter(KubernetesClient client, EventRecorder events) {
        this.client = requireNonNull(client, "client is null");
        this.events = requireNonNull(events, "events is null");
    }

    /**
     * @param correct whether an existing PodGroup is brought to the plan; false for a plain plan made
     *     without hints, which must not undo what an earlier poll with hints wrote
     */
    void write(AirflowPodGroups.Plan plan, List<Pod> pods, boolean correct) {
        GenericKubernetesResource existing = client.genericKubernetesResources(POD_GROUPS).inNamespace(plan.namespace())
                .withName(plan.name()).get();
        GenericKubernetesResource desired = manifest(plan, pods);
        try {
            if (existing == null) {
                GenericKubernetesResource created = client.genericKubernetesResources(POD_GROUPS).inNamespace(plan.namespace())
                        .resource(desired).create();
                if (correct) {
                    describe(plan, created);
                }
                log.debug("podGroup={}/{} created minMember={} annotations={}", plan.namespace(), plan.name(), plan.minMember(),
                        plan.annotations());
            } else if (correct && (!Objects.equals(spec(existing), spec(desired)) || !annotations(existing).entrySet()
                    .containsAll(plan.annotations().entrySet()))) {
                Map<String, String> annotations = new LinkedHashMap<>(annotations(existing));
                annotations.putAll(plan.annotations());
                existing.getMetadata().setAnnotations(annotations);
                existing.getMetadata().setOwnerReferences(desired.getMetadata().getOwnerReferences());
                existing.setAdditionalProperty("spec", desired.getAdditionalProperties().get("spec"));
                describe(plan, client.genericKubernetesResources(POD_GROUPS).inNamespace(plan.namespace()).resource(existing).update());
                log.debug("podGroup={}/{} corrected minMember={}", plan.namespace(), plan.name(), plan.minMember());
            }
        } catch (KubernetesClientException e) {
            log.warn("podGroup={}/{}: cannot write it (HTTP {}), trying again at the next poll: {}", plan.namespace(), plan.name(),
                    e.getCode(), e.getMessage());
        }
    }

    /**
     * An event on the PodGroup naming the Airflow DAG, run and task its pods run and the hint they got,
     * so that {@code kubectl describe podgroup} says what a waiting pod is in Airflow's terms.
     */
    private void describe(AirflowPodGroups.Plan plan, GenericKubernetesResource written) {
        Map<String, String> annotations = plan.annotations();
        String message = String.format(Locale.ROOT,
                "Airflow DAG %s, run %s, task %s%s: remaining critical path %s s, priority weight %s (weight_rule %s, own %s)",
                annotations.get(AirflowPodGroups.AIRFLOW_DAG), annotations.get(AirflowPodGroups.AIRFLOW_RUN),
                annotations.get(AirflowPodGroups.AIRFLOW_TASK),
                plan.minMember() > 1 ? " (one gang of its " + plan.minMember() + " map indexes)" : "",
                annotations.get(DagAnnotations.REMAINING_PATH), annotations.getOrDefault(DagAnnotations.PRIORITY_WEIGHT, "none"),
                annotations.get(AirflowPodGroups.AIRFLOW_WEIGHT_RULE), annotations.get(AirflowPodGroups.AIRFLOW_PRIORITY_WEIGHT));
        boolean posted = events.record(new EventRecorder.Subject("scheduling.volcano.sh/v1beta1", "PodGroup", plan.namespace(), plan.name(),
                written == null || written.getMetadata().getUid() == null ? "" : written.getMetadata().getUid()), false, AIRFLOW_TASK, message)
                .join();
        if (!posted) {
            log.debug("podGroup={}/{}: event {} not posted", plan.namespace(), plan.name(), AIRFLOW_TASK);
        }
    }

    private static Map<String, String> annotations(GenericKubernetesResource podGroup) {
        return podGroup.getMetadata().getAnnotations() == null ? Map.of() : podGroup.getMetadata().getAnnotations();
    }

    private static Object spec(GenericKubernetesResource podGroup) {
        Object spec = podGroup.getAdditionalProperties().get("spec");
        if (spec instanceof Map<?, ?> map) {
            // the API server adds status and defaults; only what the bridge writes is compared
            Map<Object, Object> ours = new LinkedHashMap<>();
            ours.put("minMember", map.get("minMember") instanceof Number number ? number.intValue() : map.get("minMember"));
            ours.put("queue", map.get("queue"));
            return ours;
        }
        return spec;
    }

    private static GenericKubernetesResource manifest(AirflowPodGroups.Plan plan, List<Pod> pods) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("minMember", plan.minMember());
        plan.queue().ifPresent(queue -> spec.put("queue", queue));
        List<OwnerReference> owners = pods.stream()
                .sorted(Comparator.comparing(pod -> pod.getMetadata().getName()))
                .map(pod -> new OwnerReferenceBuilder().withApiVersion("v1").withKind("Pod").withName(pod.getMetadata().getName())
                        .withUid(pod.getMetadata().getUid()).withController(false).withBlockOwnerDeletion(false).build())
                .toList();
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata()
                .withNamespace(plan.namespace())
                .withName(plan.name())
                .withAnnotations(plan.annotations())
                .withOwnerReferences(owners)
                .endMetadata()
                .addToAdditionalProperties("spec", spec)
                .build();
    }
}
