package dev.muster.jobs.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.jobs.TestingJobs;
import dev.muster.jobs.VolcanoJob;
import java.math.BigDecimal;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code minResources} as Volcano's {@code calcPGMinResources} computes it: ps pods take 1 cpu, workers 2, the chief 4. */
class PodGroupFactoryTest {
    private static VolcanoJob job(String minAvailable, String workerMinimum) {
        return TestingJobs.job("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: tf, namespace: ml}
                spec:
                  minAvailable: %s
                  tasks:
                  - {name: ps, replicas: 2, template: {spec: {containers: [{name: c, image: i, resources: {requests: {cpu: "1"}}}]}}}
                  - name: worker
                    replicas: 4
                    minAvailable: %s
                    template: {spec: {containers: [{name: c, image: i, resources: {requests: {cpu: "2", memory: 1Gi}}}]}}
                  - name: chief
                    replicas: 1
                    template:
                      spec:
                        priorityClassName: high
                        containers: [{name: c, image: i, resources: {requests: {cpu: "4"}}}]
                        initContainers: [{name: init, image: i, resources: {requests: {cpu: "8"}}}]
                """.formatted(minAvailable, workerMinimum));
    }

    static Stream<Arguments> jobs() {
        return Stream.of(
                Arguments.of("every task minimum, the chief at its init container request, when minAvailable is their sum", job("5", "2"), "8", "14"),
                Arguments.of("an extra worker beyond the task minimums", job("6", "2"), "8", "16"),
                Arguments.of("the first pods by priority when minAvailable is below the minimums", job("2", "4"), "8", "9"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobs")
    void minResources(String description, VolcanoJob job, String chiefCpu, String cpu) {
        Map<String, BigDecimal> resources = PodGroupFactory.minResources(job, PriorityClassLookup.of(Map.of("high", 1000)));

        assertThat(PodGroupFactory.podRequests(job.spec().task("chief").orElseThrow().template().getSpec()).get("cpu"))
                .isEqualByComparingTo(chiefCpu);
        assertThat(resources.get("cpu")).isEqualByComparingTo(cpu);
    }
}
