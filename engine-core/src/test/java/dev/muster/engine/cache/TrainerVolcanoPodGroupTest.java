package dev.muster.engine.cache;

import static dev.muster.engine.cache.WorkloadPodGroupConverterTest.fixture;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NetworkTopology;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Volcano PodGroup Kubeflow Trainer v2 writes for a TrainJob, and the JobSet's pods, read as one
 * gang: Trainer puts the queue in {@code spec.queue} (from the runtime's queue annotation), the network
 * topology in {@code spec.networkTopology}, and the group annotation on the pods, all of which a plain
 * Volcano PodGroup already carries.
 */
class TrainerVolcanoPodGroupTest {
    private static final ManifestReader READER = new ManifestReader(Set.of("volcano"));
    private static final JobId TRAIN_JOB = new JobId("default", "volcano-example");

    @Test
    void theTrainJobsPodGroupIsAGangInItsQueueWithItsTopologyAndAllFourPods() {
        // when
        ManifestResult result = READER.read("volcano-trainjob.yaml", fixture("/trainer-v2/volcano-trainjob.yaml"));

        // then
        assertThat(result.problems()).isEmpty();
        Job job = result.snapshot().jobs().get(TRAIN_JOB);
        assertThat(job.minMember()).isEqualTo(4);
        assertThat(job.queue()).isEqualTo(new QueueName("high-priority-queue"));
        assertThat(job.minResources()).contains(Resources.of(4000, 8L << 30));
        assertThat(job.priorityClassName()).isEqualTo("high-priority");
        assertThat(job.priority()).isEqualTo(1000);
        assertThat(job.networkTopology()).contains(new NetworkTopology(true, Optional.of(1), Optional.empty()));
        assertThat(job.tasks()).extracting(task -> task.id().name()).containsExactly(
                "volcano-example-node-0-0-x7k2p", "volcano-example-node-0-1-b9q4m",
                "volcano-example-node-0-2-c3n8v", "volcano-example-node-0-3-d5r1w");
        assertThat(job.problems()).isEmpty();
        assertThat(result.snapshot().jobs()).containsOnlyKeys(TRAIN_JOB);
    }

    @Test
    void aQueueThatDoesNotExistKeepsTheTrainJobPendingWithTheReason() {
        // given
        String yaml = fixture("/trainer-v2/volcano-trainjob.yaml").replace("queue: high-priority-queue", "queue: no-such-queue");

        // when
        ManifestResult result = READER.read("volcano-trainjob.yaml", yaml);

        // then
        assertThat(result.snapshot().jobs().get(TRAIN_JOB).problems()).containsExactly("spec.queue: queue 'no-such-queue' does not exist");
    }
}
