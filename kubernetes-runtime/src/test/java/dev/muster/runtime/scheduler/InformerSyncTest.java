package dev.muster.runtime.scheduler;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static dev.muster.runtime.kubernetes.Manifests.node;
import static dev.muster.runtime.kubernetes.Manifests.podGroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.runtime.informers.TestingCacheFeed;
import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.LiveScheduler;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Informers of different kinds finish their first list at different times: with ten thousand pods,
 * the PodGroups are in the cache long before their pods. The cache is fed here by hand, PodGroups
 * first, to replay that order deterministically.
 */
class InformerSyncTest {
    private static final String POD_GROUP = "scheduling.volcano.sh/v1beta1 PodGroup";

    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void noCycleRunsBeforeThePodsHaveReachedTheCache() throws InterruptedException {
        // given: the PodGroups' informer has delivered its list, the pods' has not
        ClusterObjects.create(client, node("n1", "8", "32Gi") + gang("train", 4, "default", "1"));
        try (LiveScheduler scheduler = LiveScheduler.unconnected(client)) {
            TestingCacheFeed.copy(client, scheduler.cache(), "nodes");
            TestingCacheFeed.copy(client, scheduler.cache(), "podgroups");
            TestingCacheFeed.copy(client, scheduler.cache(), "pods", "train-0");
            TestingCacheFeed.markSyncedExcept(scheduler.cache(), "pods");

            // when
            assertThatThrownBy(scheduler::runCycle)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("[pods]");

            // then: nothing was decided on a cache holding one pod of four
            assertThat(server.requests("POST", "/binding")).isZero();
            assertThat(server.requests("PATCH", "/podgroups/")).isZero();
            assertThat(server.requests("POST", "/events")).isZero();

            // and when the pods arrive, the gang is bound whole
            TestingCacheFeed.copy(client, scheduler.cache(), "pods");
            TestingCacheFeed.markSyncedExcept(scheduler.cache());
            CycleReport report = scheduler.runCycle();
            assertThat(report.written().bound()).isEqualTo(4);
        }
    }

    @Test
    void aPodGroupWhosePodsAreNotSeenYetIsNeitherBoundInPartNorCalledShortOfResources() throws InterruptedException {
        // given: a gang none of whose pods are seen yet, and one with 2 of its 4
        ClusterObjects.create(client, node("n1", "16", "64Gi") + gang("unseen", 4, "default", "1") + gang("half", 4, "default", "1"));
        try (LiveScheduler scheduler = LiveScheduler.unconnected(client)) {
            TestingCacheFeed.copy(client, scheduler.cache(), "nodes");
            TestingCacheFeed.copy(client, scheduler.cache(), "podgroups");
            TestingCacheFeed.copy(client, scheduler.cache(), "pods", "half-0", "half-1");
            TestingCacheFeed.markSyncedExcept(scheduler.cache());

            // when
            CycleReport early = scheduler.runCycle();

            // then: nothing bound, no Unschedulable condition without pods, and "not enough tasks" rather than resources
            assertThat(early.decisions().binds()).isEmpty();
            assertThat(server.requests("POST", "/binding")).isZero();
            GenericKubernetesResource unseen = ClusterObjects.get(client, POD_GROUP, "default", "unseen");
            assertThat(KubernetesSchedulerTest.condition(unseen, "Unschedulable")).isEmpty();
            GenericKubernetesResource half = ClusterObjects.get(client, POD_GROUP, "default", "half");
            assertThat(KubernetesSchedulerTest.condition(half, "Unschedulable"))
                    .containsEntry("status", "True")
                    .containsEntry("reason", "NotEnoughTasks")
                    .containsEntry("message", "not enough pods for the gang: 2 of minMember 4 exist");

            // and when every pod is seen, both gangs are bound whole
            TestingCacheFeed.copy(client, scheduler.cache(), "pods");
            CycleReport late = scheduler.runCycle();
            assertThat(late.written().bound()).isEqualTo(8);
            assertThat(unschedulableEvents()).isEmpty();
        }
    }

    @Test
    void aPodGroupWithoutPodsIsLeftWithoutConditionEvenOnceSynced() throws InterruptedException {
        // given: a PodGroup whose controller has not created its pods yet
        ClusterObjects.create(client, node("n1", "8", "32Gi") + podGroup("empty", 2, "default"));
        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            // when
            scheduler.runCycle();

            // then
            GenericKubernetesResource empty = ClusterObjects.get(client, POD_GROUP, "default", "empty");
            assertThat(KubernetesSchedulerTest.condition(empty, "Unschedulable")).isEmpty();
            // admitted, as Volcano admits it, so that a job controller goes on to create the pods
            assertThat(empty.<Object>get("status", "phase")).isEqualTo("Inqueue");
        }
    }

    private List<Event> unschedulableEvents() {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> event.getReason().equals("Unschedulable") || event.getReason().equals("FailedScheduling"))
                .toList();
    }
}
