package dev.muster.bridge.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.binding.RetryPolicy;
import dev.muster.runtime.informers.KubernetesResources;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Native mode's writes to a test API server: what a sync makes, owned by the job, and that writing it again makes nothing twice. */
class NativeJobWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NAME = "mnist";

    private final TestingApiServer server = new TestingApiServer(TestingJobs.CRDS);
    private final KubernetesClient client = server.client();
    private final NativeJobWriter writer = new NativeJobWriter(client, EventRecorder.connect(client, RetryPolicy.DEFAULT, Clock.systemUTC(),
            NativeJobWriter.COMPONENT));

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aNewJobGetsItsPodGroupOwnedByItAndItsCreatedCondition() {
        // given
        GenericKubernetesResource stored = store();
        NativeJobReader.Read read = NativeJobReader.read(TrainingKind.TFJOB, JSON.valueToTree(stored));
        NativeSyncPlan plan = NativeJobSync.sync(read.job(), RunPolicy.read(JSON.valueToTree(stored)), NativeJobStatus.EMPTY,
                new NativeJobSync.Observed(ImmutableList.of(), ImmutableSet.of(), Optional.empty(), NativeSyncs.NOW));

        // when
        writer.write(stored, read.job(), plan, () -> NativeReplicaPlanner.plan(read, GangScheduling.volcano()),
                () -> GangResources.minResources(read.job(), read.job().job().gangMinimum(), Map.of()));

        // then
        JsonNode podGroup = JSON.valueToTree(client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                .withName(NAME).get());
        assertThat(podGroup.path("spec").path("minMember").asInt()).isEqualTo(4);
        assertThat(podGroup.path("spec").path("queue").asText()).isEqualTo("default");
        assertThat(podGroup.path("metadata").path("ownerReferences").get(0).path("uid").asText()).isEqualTo(stored.getMetadata().getUid());
        assertThat(client.pods().inNamespace("default").list().getItems()).isEmpty();
        JsonNode status = JSON.valueToTree(get()).path("status");
        assertThat(status.path("conditions")).extracting(condition -> condition.path("type").asText() + " " + condition.path("reason").asText())
                .containsExactly("Created TFJobCreated");
    }

    @Test
    void anAdmittedGangsPodsAndServicesAreMadeOnceThoughTheSyncIsWrittenTwice() {
        // given
        GenericKubernetesResource stored = store();
        NativeJobReader.Read read = NativeJobReader.read(TrainingKind.TFJOB, JSON.valueToTree(stored));
        NativeSyncPlan plan = NativeJobSync.sync(read.job(), RunPolicy.read(JSON.valueToTree(stored)), NativeJobStatus.EMPTY,
                new NativeJobSync.Observed(ImmutableList.of(), ImmutableSet.of(), Optional.of("Inqueue"),
                        NativeSyncs.NOW));

        // when
        writer.write(stored, read.job(), plan, () -> NativeReplicaPlanner.plan(read, GangScheduling.volcano()),
                () -> GangResources.minResources(read.job(), read.job().job().gangMinimum(), Map.of()));
        String version = get().getMetadata().getResourceVersion();
        writer.write(get(), read.job(), plan, () -> NativeReplicaPlanner.plan(read, GangScheduling.volcano()),
                () -> GangResources.minResources(read.job(), read.job().job().gangMinimum(), Map.of()));

        // then
        List<String> names = List.of("mnist-chief-0", "mnist-ps-0", "mnist-worker-0", "mnist-worker-1");
        assertThat(client.pods().inNamespace("default").list().getItems()).extracting(pod -> pod.getMetadata().getName())
                .containsExactlyInAnyOrderElementsOf(names);
        assertThat(client.services().inNamespace("default").list().getItems()).extracting(service -> service.getMetadata().getName())
                .containsExactlyInAnyOrderElementsOf(names);
        assertThat(client.pods().inNamespace("default").list().getItems()).allSatisfy(pod -> ownedByTheJob(pod, stored));
        assertThat(client.services().inNamespace("default").list().getItems()).allSatisfy(service -> ownedByTheJob(service, stored));
        assertThat(get().getMetadata().getResourceVersion()).as("an unchanged status is not written again").isEqualTo(version);
    }

    private static void ownedByTheJob(HasMetadata object, GenericKubernetesResource job) {
        assertThat(object.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getUid()).isEqualTo(job.getMetadata().getUid());
            assertThat(owner.getController()).isTrue();
        });
    }

    private GenericKubernetesResource store() {
        ObjectNode job = TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", NAME);
        return client.genericKubernetesResources(TrainingKind.TFJOB.context()).inNamespace("default")
                .resource(JSON.convertValue(job, GenericKubernetesResource.class)).create();
    }

    private GenericKubernetesResource get() {
        return client.genericKubernetesResources(TrainingKind.TFJOB.context()).inNamespace("default").withName(NAME).get();
    }
}
