package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.SchedulerConfigLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code what-if} explains the room held for a Spark application's executors, and why another job does not get it. */
class WhatIfReservationTest {
    private static final String CONFIG = """
            actions: "enqueue, allocate"
            tiers:
            - plugins: [{name: priority}, {name: gang}, {name: executorreservation, arguments: {hold-timeout: 5m}}]
            - plugins: [{name: predicates}, {name: proportion}]
            """;
    private static final String CLUSTER = """
            apiVersion: v1
            kind: Node
            metadata: {name: n1}
            status:
              allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
            ---
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: PodGroup
            metadata:
              name: app-podgroup
              namespace: spark
              annotations: {muster.dev/spark-expected-executors: "3", muster.dev/spark-gang-executors: "3"}
            spec: {minMember: 1, minResources: {cpu: "7", memory: 7Gi}}
            status: {phase: Running}
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: app-driver
              namespace: spark
              labels: {spark-role: driver}
              annotations: {scheduling.k8s.io/group-name: app-podgroup}
            spec:
              schedulerName: muster
              nodeName: n1
              containers: [{name: driver, image: spark, resources: {requests: {cpu: "1", memory: 1Gi}}}]
            status: {phase: Running, startTime: "2026-01-01T00:59:00Z"}
            ---
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: PodGroup
            metadata: {name: other, namespace: batch}
            spec: {minMember: 1}
            status: {phase: Inqueue}
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: other-0
              namespace: batch
              annotations: {scheduling.k8s.io/group-name: other}
            spec:
              schedulerName: muster
              containers: [{name: main, image: busybox, resources: {requests: {cpu: "2", memory: 1Gi}}}]
            status: {phase: Pending}
            """;

    @TempDir
    Path directory;

    @Test
    void theTableSaysWhatIsHeldForTheApplicationAndWhyTheOtherJobWaits() throws IOException {
        // given
        Path config = Files.writeString(directory.resolve("scheduler.conf"), CONFIG);
        Path cluster = Files.writeString(directory.resolve("cluster.yaml"), CLUSTER);
        SchedulerConfigLoader loader = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
        WhatIf whatIf = new WhatIf(loader, Clock.fixed(Instant.parse("2026-01-01T01:00:00Z"), ZoneOffset.UTC));

        // when
        WhatIf.Outcome outcome = whatIf.run(List.of(cluster), Optional.of(config), Set.of("muster"));
        String table = WhatIfTable.render(outcome.manifests().snapshot(), outcome.decisions());

        // then
        assertThat(outcome.decisions().binds()).isEmpty();
        assertThat(table).contains("ready; executor room held: 3 of 3 missing executors").contains("n1×3")
                .contains("until 2026-01-01T01:04:00Z")
                .contains("held for the executors of spark/app-podgroup");
        assertThat(WhatIfJson.render(outcome.manifests().snapshot(), outcome.decisions())).contains("\"reservation\" : \"executor room held: 3 of 3");
    }
}
