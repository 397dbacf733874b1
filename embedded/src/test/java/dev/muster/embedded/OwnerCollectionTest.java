package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Deleting an owner deletes its dependents, transitively, as a real cluster's garbage collector does. */
class OwnerCollectionTest {
    private static final ResourceDefinitionContext JOBS = new ResourceDefinitionContext.Builder()
            .withGroup("batch.volcano.sh").withVersion("v1alpha1").withKind("Job").withPlural("jobs").withNamespaced(true).build();

    private static EmbeddedApiServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void deletingAJobDeletesWhatItOwnsAndWhatThoseOwn() {
        // given: a Job owning a pod, a ConfigMap and a Secret; the pod owning a ConfigMap of its own
        GenericKubernetesResource job = client.genericKubernetesResources(JOBS).inNamespace("default").resource(
                new GenericKubernetesResourceBuilder().withApiVersion("batch.volcano.sh/v1alpha1").withKind("Job")
                        .withNewMetadata().withName("owner").withNamespace("default").endMetadata().build()).create();
        OwnerReference byJob = owner("batch.volcano.sh/v1alpha1", "Job", job);
        Pod pod = client.resource(new PodBuilder().withNewMetadata().withName("owner-task-0").withOwnerReferences(byJob).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec().build()).create();
        client.resource(configMap("owner-svc", byJob)).create();
        client.resource(new SecretBuilder().withNewMetadata().withName("owner-ssh").withOwnerReferences(byJob).endMetadata().build()).create();
        client.resource(configMap("pod-scratch", owner("v1", "Pod", pod))).create();
        client.resource(configMap("bystander")).create();
        Set<String> deletedPods = ConcurrentHashMap.newKeySet();
        SharedIndexInformer<Pod> informer = client.pods().inNamespace("default").inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod added) {}

            @Override
            public void onUpdate(Pod before, Pod after) {}

            @Override
            public void onDelete(Pod deleted, boolean finalStateUnknown) {
                deletedPods.add(deleted.getMetadata().getName());
            }
        });

        // when
        client.genericKubernetesResources(JOBS).inNamespace("default").withName("owner").delete();

        // then
        assertThat(client.pods().withName("owner-task-0").get()).isNull();
        assertThat(client.configMaps().withName("owner-svc").get()).isNull();
        assertThat(client.secrets().withName("owner-ssh").get()).isNull();
        assertThat(client.configMaps().withName("pod-scratch").get()).isNull();
        assertThat(client.configMaps().withName("bystander").get()).isNotNull();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(deletedPods).contains("owner-task-0"));
        informer.stop();
    }

    @Test
    void anObjectWhoseOwnerIsNotDeletedStays() {
        // given
        ConfigMap owner = client.resource(configMap("kept-owner")).create();
        client.resource(configMap("kept-dependent", owner("v1", "ConfigMap", owner))).create();
        client.resource(configMap("other-owner")).create();

        // when
        client.configMaps().withName("other-owner").delete();

        // then
        assertThat(client.configMaps().withName("kept-dependent").get()).isNotNull();
    }

    @Test
    void aDependentRecreatedWithoutItsOwnerReferenceIsNotCollected() {
        // given: the dependent drops its owner reference in an update
        ConfigMap owner = client.resource(configMap("released-owner")).create();
        ConfigMap dependent = client.resource(configMap("released", owner("v1", "ConfigMap", owner))).create();
        dependent.getMetadata().setOwnerReferences(List.of());
        dependent.setData(Map.of("released", "yes"));
        client.resource(dependent).update();

        // when
        client.configMaps().withName("released-owner").delete();

        // then
        assertThat(client.configMaps().withName("released").get()).isNotNull();
    }

    private static ConfigMap configMap(String name, OwnerReference... owners) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withOwnerReferences(owners).endMetadata().build();
    }

    private static OwnerReference owner(String apiVersion, String kind, HasMetadata object) {
        return new OwnerReferenceBuilder().withApiVersion(apiVersion).withKind(kind).withName(object.getMetadata().getName())
                .withUid(object.getMetadata().getUid()).withController(true).build();
    }
}
