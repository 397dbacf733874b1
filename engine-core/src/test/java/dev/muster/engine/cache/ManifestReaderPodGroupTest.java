package dev.muster.engine.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.cache.ManifestProblem.Severity;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NetworkTopology;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How PodGroups become jobs, and how their priority is resolved. */
class ManifestReaderPodGroupTest {
    private static final ManifestReader READER = new ManifestReader(Set.of("volcano"));

    private static ManifestResult read(String yaml) {
        return READER.read("cluster.yaml", yaml);
    }

    private static ImmutableList<String> describe(ManifestResult result) {
        return result.problems().stream().map(ManifestProblem::describe).collect(ImmutableList.toImmutableList());
    }

    @Test
    void mapsAPodGroup() {
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata:
                  name: train
                  namespace: ml
                  uid: pg-1
                  creationTimestamp: "2026-01-01T00:00:00Z"
                  annotations: {note: x}
                spec:
                  queue: research
                  minMember: 0
                  minTaskMember: {master: 1, worker: 2}
                  minResources: {cpu: "3", nvidia.com/gpu: "1"}
                  priorityClassName: high
                  networkTopology: {mode: soft, highestTierAllowed: 2}
                status: {phase: Inqueue}
                ---
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: research}
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: high}
                value: 1000
                """;

        ManifestResult result = read(yaml);

        assertThat(result.problems()).isEmpty();
        Job job = result.snapshot().jobs().get(new JobId("ml", "train"));
        assertThat(job.uid()).isEqualTo("pg-1");
        assertThat(job.queue()).isEqualTo(new QueueName("research"));
        assertThat(job.minMember()).isZero();
        assertThat(job.minTaskMember()).isEqualTo(ImmutableMap.of("master", 1, "worker", 2));
        assertThat(job.minResources()).contains(Resources.of(3000, 0).withScalar("nvidia.com/gpu", 1000));
        assertThat(job.priorityClassName()).isEqualTo("high");
        assertThat(job.priority()).isEqualTo(1000);
        assertThat(job.phase()).isEqualTo(PodGroupPhase.INQUEUE);
        assertThat(job.created()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        assertThat(job.networkTopology()).contains(new NetworkTopology(false, Optional.of(2), Optional.empty()));
        assertThat(job.annotations()).isEqualTo(ImmutableMap.of("note", "x"));
        assertThat(job.problems()).isEmpty();
    }

    @Test
    void defaultsAPodGroup() {
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: train, namespace: ml}
                spec: {networkTopology: {highestTierName: spine}}
                """;

        Job job = read(yaml).snapshot().jobs().get(new JobId("ml", "train"));

        assertThat(job.uid()).isEqualTo("ml/train");
        assertThat(job.queue()).isEqualTo(Queue.DEFAULT);
        assertThat(job.minMember()).isEqualTo(1);
        assertThat(job.minResources()).isEmpty();
        assertThat(job.priority()).isZero();
        assertThat(job.phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(job.networkTopology()).contains(new NetworkTopology(true, Optional.empty(), Optional.of("spine")));
    }

    @Test
    void resolvesJobPriorityFromItsClassOrTheGlobalDefault() {
        String yaml = """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: normal}
                value: 100
                globalDefault: true
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: high}
                value: 1000
                ---
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: named, namespace: ml}
                spec: {priorityClassName: high, minMember: 0}
                ---
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: unnamed, namespace: ml}
                spec: {minMember: 0}
                ---
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: unknown, namespace: ml}
                spec: {priorityClassName: missing, minMember: 0}
                """;

        ManifestResult result = read(yaml);

        assertThat(result.snapshot().priorityClasses()).isEqualTo(ImmutableMap.of("normal", 100, "high", 1000));
        assertThat(result.snapshot().jobs().get(new JobId("ml", "named")).priority()).isEqualTo(1000);
        assertThat(result.snapshot().jobs().get(new JobId("ml", "unnamed")).priority()).isEqualTo(100);
        assertThat(result.snapshot().jobs().get(new JobId("ml", "unknown")).priority()).isZero();
        assertThat(describe(result)).containsExactly(
                "cluster.yaml[4] PodGroup ml/unknown: spec.priorityClassName: PriorityClass 'missing' does not exist; priority 0");
    }

    @Test
    void aPodGroupWithABadFieldIsKeptPendingWithTheProblem() {
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: train, namespace: ml}
                spec: {minMember: 0, minResources: {cpu: "-1", memory: 1Gi}}
                """;

        ManifestResult result = read(yaml);

        Job job = result.snapshot().jobs().get(new JobId("ml", "train"));
        assertThat(job.minResources()).contains(Resources.of(0, 1073741824.0));
        assertThat(job.problems()).containsExactly("spec.minResources.cpu: '-1' is negative");
        assertThat(describe(result)).containsExactly("cluster.yaml[0] PodGroup ml/train: spec.minResources.cpu: '-1' is negative");
    }

    @Test
    void aPodGroupInAMissingQueueIsKeptWithAProblem() {
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: train, namespace: ml}
                spec: {queue: nope, minMember: 0}
                """;

        ManifestResult result = read(yaml);

        assertThat(result.snapshot().jobs().get(new JobId("ml", "train")).problems()).containsExactly("spec.queue: queue 'nope' does not exist");
        assertThat(describe(result)).containsExactly(
                "cluster.yaml[0] PodGroup ml/train: spec.queue: queue 'nope' does not exist; the job stays pending");
    }

    @Test
    void aGangLargerThanItsPodsIsOnlyWarnedAbout() {
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: train, namespace: ml}
                spec: {minMember: 4}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: a, namespace: ml, annotations: {scheduling.k8s.io/group-name: train}}
                spec: {schedulerName: volcano, containers: [{name: main}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: b, namespace: ml, annotations: {scheduling.k8s.io/group-name: train}}
                spec: {schedulerName: volcano, containers: [{name: main}]}
                """;

        ManifestResult result = read(yaml);

        assertThat(result.snapshot().jobs().get(new JobId("ml", "train")).problems()).isEmpty();
        assertThat(result.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.severity()).isEqualTo(Severity.WARNING);
            assertThat(problem.describe())
                    .isEqualTo("cluster.yaml[0] PodGroup ml/train: spec.minMember: minMember 4 is more than its 2 pods");
        });
    }
}
