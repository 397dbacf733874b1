package dev.muster.engine.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.LabelRequirement;
import dev.muster.engine.model.NetworkTopology;
import dev.muster.engine.model.SubGroupPolicy;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ManifestReaderSubGroupPolicyTest {
    private static final ManifestReader READER = new ManifestReader(Set.of("volcano"));

    private static Job readJob(String spec) {
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: train, namespace: ml}
                spec:
                """ + spec.indent(2);
        return READER.read("cluster.yaml", yaml).snapshot().jobs().get(new JobId("ml", "train"));
    }

    @Test
    void mapsASubGroupPolicy() {
        // when
        Job job = readJob("""
                subGroupPolicy:
                - name: workers
                  subGroupSize: 2
                  minSubGroups: 1
                  labelSelector:
                    matchLabels: {app: train}
                    matchExpressions: [{key: tier, operator: In, values: [gpu]}]
                  matchLabelKeys: [volcano.sh/task-spec]
                  networkTopology: {mode: hard, highestTierAllowed: 1}
                """);

        // then
        assertThat(job.problems()).isEmpty();
        assertThat(job.subGroupPolicies()).containsExactly(new SubGroupPolicy("workers", Optional.of(2), 1, true,
                ImmutableMap.of("app", "train"), ImmutableList.of(new LabelRequirement("tier", "In", ImmutableList.of("gpu"))),
                ImmutableList.of("volcano.sh/task-spec"), Optional.of(new NetworkTopology(true, Optional.of(1), Optional.empty()))));
    }

    @Test
    void defaultsASubGroupPolicy() {
        // when
        Job job = readJob("""
                subGroupPolicy: [{name: workers}]
                """);

        // then
        assertThat(job.subGroupPolicies()).containsExactly(new SubGroupPolicy("workers", Optional.empty(), 0, false,
                ImmutableMap.of(), ImmutableList.of(), ImmutableList.of(), Optional.empty()));
    }

    @Test
    void aBadSubGroupPolicyKeepsTheJobPendingWithTheProblem() {
        // when
        Job job = readJob("""
                subGroupPolicy:
                - {name: workers, minSubGroups: -1}
                - {name: workers}
                - {subGroupSize: 1}
                """);

        // then
        assertThat(job.problems()).containsExactly(
                "spec.subGroupPolicy[0].minSubGroups: -1 is negative",
                "spec.subGroupPolicy[2].name: is missing");
        assertThat(job.subGroupPolicies()).extracting(SubGroupPolicy::name).containsExactly("workers");
    }
}
