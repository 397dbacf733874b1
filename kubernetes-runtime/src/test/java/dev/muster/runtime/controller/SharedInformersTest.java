package dev.muster.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.muster.runtime.informers.KubernetesResources;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two controller terms in one process, each with its own {@link TermInformers}, on the process's one {@link SharedInformers}. */
class SharedInformersTest {
    private static final String JOB_LABEL = "example.muster.dev/job";
    private static final WatchedKind QUEUES = new WatchedKind(GenericKubernetesResource.class, "scheduling.volcano.sh", "v1beta1",
            "queues", Optional.empty());

    private static final ResourceDefinitionContext WIDGETS = new ResourceDefinitionContext.Builder()
            .withGroup("example.muster.dev").withVersion("v1").withKind("Widget").withPlural("widgets").withNamespaced(true).build();

    private final TestingApiServer server = new TestingApiServer();
    private final SharedInformers shared = new SharedInformers(server.client());

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void aKindTwoTermsWatchIsListedOnceAndTheSecondTermGetsWhatIsStoredAsAddsAtItsStart() throws InterruptedException {
        // given: the first term runs with the Queues listed
        queue("research");
        TermInformers first = new TermInformers(shared, "first bridge");
        Names firstSeen = new Names();
        first.resources(KubernetesResources.QUEUES).addEventHandler(firstSeen);
        first.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> firstSeen.added.contains("research"));
        long listsAndWatches = server.requests("GET", "/queues");

        // when: a second term asks for the same kind and adds its handler before its start
        TermInformers second = new TermInformers(shared, "second bridge");
        Names secondSeen = new Names();
        SharedIndexInformer<GenericKubernetesResource> queues = second.resources(KubernetesResources.QUEUES);
        queues.addEventHandler(secondSeen);
        queue("production");
        await().atMost(Duration.ofSeconds(5)).until(() -> firstSeen.added.contains("production"));

        // then: nothing reaches it before its start, and everything stored does at its start, without another list
        assertThat(secondSeen.added).isEmpty();
        second.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> secondSeen.added.containsAll(Set.of("research", "production")));
        assertThat(server.requests("GET", "/queues")).isEqualTo(listsAndWatches);
        assertThat(queues.getStore().listKeys()).containsExactlyInAnyOrder("research", "production");
        assertThat(shared.leases(QUEUES)).isEqualTo(2);
        second.stop();
        first.stop();
    }

    @Test
    void aTermThatStopsGetsNothingMoreAndTheInformerStopsWithItsLastTerm() throws InterruptedException {
        // given
        TermInformers first = new TermInformers(shared, "first bridge");
        TermInformers second = new TermInformers(shared, "second bridge");
        Names firstSeen = new Names();
        Names secondSeen = new Names();
        SharedIndexInformer<GenericKubernetesResource> firstQueues = first.resources(KubernetesResources.QUEUES);
        firstQueues.addEventHandler(firstSeen);
        second.resources(KubernetesResources.QUEUES).addEventHandler(secondSeen);
        first.start();
        second.start();

        // when
        first.stop();
        queue("after");

        // then: the other term still gets events, the one that stopped none
        await().atMost(Duration.ofSeconds(5)).until(() -> secondSeen.added.contains("after"));
        assertThat(firstSeen.added).doesNotContain("after");
        assertThat(firstQueues.isRunning()).isTrue();
        assertThat(shared.leases(QUEUES)).isEqualTo(1);

        // and when the last term stops, so does the informer
        second.stop();
        assertThat(firstQueues.isRunning()).isFalse();
        assertThat(shared.leases(QUEUES)).isZero();
    }

    @Test
    void twoTermsMayEachHaveAnIndexOfTheSameName() throws InterruptedException {
        // given: two terms index the same pods by "job", one by the label, one by the label and the pod's namespace
        pod("default", "a-0", "a");
        pod("other", "a-0", "a");
        TermInformers first = new TermInformers(shared, "first bridge");
        TermInformers second = new TermInformers(shared, "second bridge");
        SharedIndexInformer<Pod> byLabel = first.pods(JOB_LABEL);
        SharedIndexInformer<Pod> byNamespacedLabel = second.pods(JOB_LABEL);
        byLabel.addIndexers(Map.of("job", pod -> List.of(pod.getMetadata().getLabels().get(JOB_LABEL))));
        byNamespacedLabel.addIndexers(Map.of("job", pod -> List.of(pod.getMetadata().getNamespace() + "/"
                + pod.getMetadata().getLabels().get(JOB_LABEL))));

        // when
        first.start();
        second.start();

        // then
        assertThat(byLabel.getIndexer().byIndex("job", "a")).hasSize(2);
        assertThat(byNamespacedLabel.getIndexer().byIndex("job", "other/a")).extracting(pod -> pod.getMetadata().getNamespace())
                .containsExactly("other");
        assertThat(byLabel.getIndexer().getIndexers()).containsOnlyKeys("job");
        assertThat(byLabel.getIndexer().byIndex(Cache.NAMESPACE_INDEX, "other")).hasSize(1);

        // and a term's indexes go with it
        first.stop();
        assertThat(byNamespacedLabel.getIndexer().byIndex("job", "default/a")).hasSize(1);
        second.stop();
    }

    @Test
    void aTermThatMustNotFailToStartLeavesAKindNotServedUnwatchedAndStartsTheOthers() throws InterruptedException {
        // given: the Widget CRD is not installed
        queue("research");
        TermInformers term = new TermInformers(shared, "job controllers");
        SharedIndexInformer<GenericKubernetesResource> widgets = term.resources(WIDGETS);
        SharedIndexInformer<GenericKubernetesResource> queues = term.resources(KubernetesResources.QUEUES);

        // when
        term.startWithoutDeadline(Duration.ofSeconds(1));

        // then
        assertThat(widgets.isRunning()).isFalse();
        assertThat(widgets.getStore().list()).isEmpty();
        assertThat(queues.getStore().listKeys()).containsExactly("research");
        term.stop();
        assertThat(shared.leases(QUEUES)).isZero();
    }

    @Test
    void aTermMayNotStartOrStopASharedInformerItself() {
        TermInformers term = new TermInformers(shared, "example bridge");
        SharedIndexInformer<GenericKubernetesResource> queues = term.resources(KubernetesResources.QUEUES);

        assertThatThrownBy(queues::start).isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("example bridge: start on a shared informer; TermInformers starts and stops it");
        assertThatThrownBy(queues::stop).isInstanceOf(UnsupportedOperationException.class);
        term.stop();
        assertThat(shared.leases(QUEUES)).isZero();
    }

    private void queue(String name) {
        server.client().genericKubernetesResources(KubernetesResources.QUEUES).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1").withKind("Queue").withNewMetadata().withName(name).endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("weight", 1))).build()).create();
    }

    private void pod(String namespace, String name, String job) {
        if (server.client().namespaces().withName(namespace).get() == null) {
            server.client().namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                    .withName(namespace).endMetadata().build()).create();
        }
        server.client().pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of(JOB_LABEL, job)).endMetadata().withNewSpec().addNewContainer().withName("main").withImage("busybox")
                .endContainer().endSpec().build()).create();
    }

    /** The names of the objects a handler was told were added. */
    private static final class Names implements ResourceEventHandler<GenericKubernetesResource> {
        final Set<String> added = ConcurrentHashMap.newKeySet();

        @Override
        public void onAdd(GenericKubernetesResource object) {
            added.add(object.getMetadata().getName());
        }

        @Override
        public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource after) {}

        @Override
        public void onDelete(GenericKubernetesResource object, boolean deletedFinalStateUnknown) {}
    }
}
