package dev.muster.runtime.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.cache.ResourceKind;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.testing.TestingScheduler;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AdmissionTrialTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final SessionConfig CONFIG = TestingScheduler.loader().parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text());

    private static final String RUNNING_POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: first-shard-a
              namespace: default
              uid: p1
              labels: {workflows.argoproj.io/workflow: first}
              annotations: {scheduling.k8s.io/group-name: first-shards}
            spec:
              schedulerName: muster
              nodeName: n1
              containers: [{name: main, image: busybox, resources: {requests: {cpu: "3"}}}]
            status: {phase: Running}
            """;

    private final ClusterCache cache = new ClusterCache(Set.of("muster"), CLOCK);
    private final AdmissionTrial trial = new AdmissionTrial(cache, CONFIG, CLOCK);

    @Test
    void aCandidateThatFitsItsQueueIsAdmitted() throws Exception {
        // given
        clusterWithQueueOfTenCpus();

        // when
        Map<JobId, AdmissionTrial.Verdict> verdicts = trial.admit(List.of(job("first", PodGroupPhase.PENDING, 9, "2026-01-01T00:00:00Z")));

        // then
        assertThat(verdicts).containsExactly(Map.entry(new JobId("default", "first"), new AdmissionTrial.Admitted()));
    }

    @Test
    void aReservationLeavesTooLittleForTheNextCandidate() throws Exception {
        // given
        clusterWithQueueOfTenCpus();

        // when
        Map<JobId, AdmissionTrial.Verdict> verdicts = trial.admit(List.of(job("first", PodGroupPhase.INQUEUE, 9, "2026-01-01T00:00:00Z"),
                job("second", PodGroupPhase.PENDING, 9, "2026-01-01T00:00:01Z")));

        // then
        assertThat(verdicts).containsOnlyKeys(new JobId("default", "second"));
        assertThat(verdicts.get(new JobId("default", "second"))).isInstanceOfSatisfying(AdmissionTrial.Waits.class,
                waits -> assertThat(waits.reason()).contains("queue pipelines").contains("cpu"));
    }

    @Test
    void aReservationCountsOnlyWhatItsLabelledRunningPodsDoNotHoldYet() throws Exception {
        // given: a workflow's pod of 3 CPUs runs, in a PodGroup of its own
        clusterWithQueueOfTenCpus();
        cache.put(ResourceKind.VOLCANO_POD_GROUP, yaml("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: first-shards, namespace: default, uid: g1}
                spec: {minMember: 1, queue: pipelines, minResources: {cpu: "3"}}
                status: {phase: Running}
                """));
        cache.put(ResourceKind.POD, yaml(RUNNING_POD));
        AdmissionTrial.Reservation first = new AdmissionTrial.Reservation(job("first", PodGroupPhase.INQUEUE, 9, "2026-01-01T00:00:00Z"),
                ImmutableMap.of("workflows.argoproj.io/workflow", "first"));

        // when: 3 run and 6 are reserved, so 1 is left; then 3 run and 9 would be reserved were the pod not the workflow's
        Map<JobId, AdmissionTrial.Verdict> fits = trial.admit(List.of(job("second", PodGroupPhase.PENDING, 1, "2026-01-01T00:00:01Z")),
                List.of(first));
        Map<JobId, AdmissionTrial.Verdict> other = trial.admit(List.of(job("second", PodGroupPhase.PENDING, 1, "2026-01-01T00:00:01Z")),
                List.of(new AdmissionTrial.Reservation(first.job(), ImmutableMap.of("workflows.argoproj.io/workflow", "other"))));

        // then
        assertThat(fits.get(new JobId("default", "second"))).isEqualTo(new AdmissionTrial.Admitted());
        assertThat(other.get(new JobId("default", "second"))).isInstanceOf(AdmissionTrial.Waits.class);
    }

    @Test
    void aRunningPodGroupWithoutMinimumResourcesCountsForNothingSoTheReservationKeepsItAll() throws Exception {
        // given: the pod's PodGroup has no minResources, so admission counts what it runs as elastic, as Volcano does
        clusterWithQueueOfTenCpus();
        cache.put(ResourceKind.VOLCANO_POD_GROUP, yaml("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: first-shards, namespace: default, uid: g1}
                spec: {minMember: 1, queue: pipelines}
                status: {phase: Running}
                """));
        cache.put(ResourceKind.POD, yaml(RUNNING_POD));
        AdmissionTrial.Reservation first = new AdmissionTrial.Reservation(job("first", PodGroupPhase.INQUEUE, 9, "2026-01-01T00:00:00Z"),
                ImmutableMap.of("workflows.argoproj.io/workflow", "first"));

        // when
        Map<JobId, AdmissionTrial.Verdict> verdicts = trial.admit(List.of(job("second", PodGroupPhase.PENDING, 2, "2026-01-01T00:00:01Z")),
                List.of(first));

        // then: 9 reserved and 2 asked exceed 10
        assertThat(verdicts.get(new JobId("default", "second"))).isInstanceOf(AdmissionTrial.Waits.class);
    }

    @Test
    void candidatesAreJudgedInQueueOrderTheOlderFirst() throws Exception {
        // given
        clusterWithQueueOfTenCpus();

        // when: the younger is listed first
        Map<JobId, AdmissionTrial.Verdict> verdicts = trial.admit(List.of(job("younger", PodGroupPhase.PENDING, 9, "2026-01-01T00:00:05Z"),
                job("older", PodGroupPhase.PENDING, 9, "2026-01-01T00:00:01Z")));

        // then
        assertThat(verdicts.get(new JobId("default", "older"))).isEqualTo(new AdmissionTrial.Admitted());
        assertThat(verdicts.get(new JobId("default", "younger"))).isInstanceOf(AdmissionTrial.Waits.class);
    }

    @Test
    void aHigherPriorityClassGoesBeforeAnOlderCandidate() throws Exception {
        // given
        clusterWithQueueOfTenCpus();
        cache.put(ResourceKind.PRIORITY_CLASS, yaml("""
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: urgent}
                value: 1000
                """));
        Job urgent = job("urgent", PodGroupPhase.PENDING, 9, "2026-01-01T00:00:05Z");
        urgent = new Job(urgent.id(), "", urgent.queue(), 1, ImmutableMap.of(), urgent.minResources(), 0, "urgent", PodGroupPhase.PENDING,
                urgent.created(), Optional.empty(), ImmutableMap.of(), ImmutableList.of(), ImmutableList.of());

        // when
        Map<JobId, AdmissionTrial.Verdict> verdicts = trial.admit(List.of(job("older", PodGroupPhase.PENDING, 9, "2026-01-01T00:00:01Z"), urgent));

        // then
        assertThat(verdicts.get(new JobId("default", "urgent"))).isEqualTo(new AdmissionTrial.Admitted());
        assertThat(verdicts.get(new JobId("default", "older"))).isInstanceOf(AdmissionTrial.Waits.class);
    }

    @Test
    void aJobWithoutMinimumResourcesIsRefused() throws Exception {
        // given
        clusterWithQueueOfTenCpus();
        Job unbounded = new Job(new JobId("default", "x"), "", new QueueName("pipelines"), 1, ImmutableMap.of(), Optional.empty(), 0, "",
                PodGroupPhase.PENDING, Instant.EPOCH, Optional.empty(), ImmutableMap.of(), ImmutableList.of(), ImmutableList.of());

        // then
        assertThatThrownBy(() -> trial.admit(List.of(unbounded))).hasMessage("job default/x: minResources is missing");
    }

    private void clusterWithQueueOfTenCpus() throws Exception {
        cache.put(ResourceKind.NODE, yaml("""
                apiVersion: v1
                kind: Node
                metadata: {name: n1}
                status:
                  allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
                  capacity: {cpu: "16", memory: 64Gi, pods: "110"}
                  conditions: [{type: Ready, status: "True"}]
                """));
        cache.put(ResourceKind.QUEUE, yaml("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: pipelines}
                spec: {weight: 1, capability: {cpu: "10"}}
                """));
        cache.put(ResourceKind.QUEUE, yaml("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: default}
                spec: {weight: 1}
                """));
    }

    private static Job job(String name, PodGroupPhase phase, int cpus, String created) {
        return new Job(new JobId("default", name), "", new QueueName("pipelines"), 1, ImmutableMap.of(),
                Optional.of(Resources.of(cpus * 1000.0, 0)), 0, "", phase, Instant.parse(created), Optional.empty(), ImmutableMap.of(),
                ImmutableList.of(), ImmutableList.of());
    }

    private static ObjectNode yaml(String text) throws Exception {
        return (ObjectNode) YAML.readTree(text);
    }
}
