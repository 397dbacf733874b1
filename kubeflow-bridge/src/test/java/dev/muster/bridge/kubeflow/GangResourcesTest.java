package dev.muster.bridge.kubeflow;

import static dev.muster.bridge.kubeflow.TestingJobs.example;
import static dev.muster.bridge.kubeflow.TestingJobs.replicaSpec;
import static dev.muster.bridge.kubeflow.TestingJobs.schedulingPolicy;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code minResources} of native mode's PodGroup, as training operator v1.9's {@code calcPGMinResources} sums it. */
class GangResourcesTest {
    @Test
    void theGangsPodsRequestsAreSummedPerResource() {
        // Chief and PS ask 500m and 1Gi each, the two Workers 1 cpu and 512Mi each
        ObjectNode job = example(TestingJobs.TF_DIST_MNIST);
        requests(job, "Chief", "500m", "1Gi");
        requests(job, "PS", "500m", "1Gi");
        requests(job, "Worker", "1", "512Mi");

        assertThat(minResources(job, Map.of())).isEqualTo(list("cpu", "3", "memory", "3Gi"));
    }

    @Test
    void aContainerWithoutRequestsCountsItsLimits() {
        // the GPU mnist example asks its GPU as a limit only, as it is written
        assertThat(minResources(example(TestingJobs.PYTORCH_MNIST_NCCL), Map.of())).isEqualTo(list("nvidia.com/gpu", "2"));
    }

    @Test
    void aContainerWithEmptyRequestsCountsNothingNotItsLimits() {
        // as in Go, an empty map is not a missing one: AddResourceList falls back to limits only without requests
        ObjectNode job = example(TestingJobs.PYTORCH_MNIST_NCCL);
        container(job, "Worker").with("resources").putObject("requests");

        assertThat(minResources(job, Map.of())).isEqualTo(list("nvidia.com/gpu", "1"));
    }

    @Test
    void withMinAvailableTheFirstPodsCountInTheOrderOfTheirPriorityClass() {
        // a gang of 2 out of 4: Workers ask 1 cpu, Chief and PS 500m; the Workers' class is the highest
        ObjectNode job = example(TestingJobs.TF_DIST_MNIST);
        schedulingPolicy(job).put("minAvailable", 2);
        requests(job, "Chief", "500m", "1Gi");
        requests(job, "PS", "500m", "1Gi");
        requests(job, "Worker", "1", "512Mi");
        ((ObjectNode) replicaSpec(job, "Worker").path("template").path("spec")).put("priorityClassName", "high");

        // then: the two Workers count; without the class (or with a lower value) Chief and PS come first, by name
        assertThat(minResources(job, Map.of("high", 1000))).isEqualTo(list("cpu", "2", "memory", "1Gi"));
        assertThat(minResources(job, Map.of())).isEqualTo(list("cpu", "1", "memory", "2Gi"));
        assertThat(minResources(job, Map.of("high", -5))).isEqualTo(list("cpu", "1", "memory", "2Gi"));
    }

    @Test
    void anElasticPyTorchJobCountsItsGangAtTheMinimum() {
        // the echo example: two Workers, elasticPolicy 1..2, each Worker asks 2 cpus
        ObjectNode job = example(TestingJobs.PYTORCH_ELASTIC_ECHO);
        container(job, "Worker").with("resources").putObject("requests").put("cpu", "2");

        assertThat(minResources(job, Map.of())).isEqualTo(list("cpu", "2"));
    }

    @Test
    void theJobsOwnMinResourcesWin() {
        ObjectNode job = example(TestingJobs.TF_DIST_MNIST);
        requests(job, "Worker", "1", "512Mi");
        schedulingPolicy(job).putObject("minResources").put("cpu", "10").put("nvidia.com/gpu", 4);

        assertThat(minResources(job, Map.of())).isEqualTo(JsonNodeFactory.instance.objectNode().put("cpu", "10").put("nvidia.com/gpu", 4));
    }

    @Test
    void sumsAreWrittenExactly() {
        assertThat(GangResources.format(new BigDecimal("1.5"), false)).isEqualTo("1500m");
        assertThat(GangResources.format(new BigDecimal("4.000"), false)).isEqualTo("4");
        assertThat(GangResources.format(new BigDecimal("0.0005"), false)).isEqualTo("0.0005");
        assertThat(GangResources.format(new BigDecimal(1536L << 20), true)).isEqualTo("1536Mi");
        assertThat(GangResources.format(new BigDecimal(3L << 30), true)).isEqualTo("3Gi");
        // 1Gi and 1G together: no binary suffix divides it, so the bytes
        assertThat(GangResources.format(new BigDecimal((1L << 30) + 1_000_000_000L), true)).isEqualTo("2073741824");
    }

    @Test
    void aRequestThatIsNotAQuantityIsBadInputNamingTheContainersField() {
        ObjectNode job = example(TestingJobs.TF_DIST_MNIST);
        requests(job, "PS", "half", "1Gi");

        NativeJobReader.Read read = NativeJobReader.read(TrainingKind.TFJOB, job);

        assertThat(read.problems()).extracting(FieldProblem::toString)
                .containsExactly("spec.tfReplicaSpecs.PS.template.spec.containers[0].resources.requests.cpu: 'half' is not a Kubernetes quantity");
        assertThat(read.job().replicaSpecs()).doesNotContainKey("PS");
    }

    private static ObjectNode minResources(ObjectNode job, Map<String, Integer> priorityClasses) {
        NativeJobReader.Read read = NativeJobReader.read(TestingJobs.kindOf(job), job);
        assertThat(read.problems()).isEmpty();
        return GangResources.minResources(read.job(), read.job().job().gangMinimum(), priorityClasses);
    }

    private static void requests(ObjectNode job, String type, String cpu, String memory) {
        container(job, type).with("resources").putObject("requests").put("cpu", cpu).put("memory", memory);
    }

    private static ObjectNode container(ObjectNode job, String type) {
        return (ObjectNode) replicaSpec(job, type).path("template").path("spec").path("containers").get(0);
    }

    private static ObjectNode list(String... namesAndQuantities) {
        ObjectNode list = JsonNodeFactory.instance.objectNode();
        for (int i = 0; i < namesAndQuantities.length; i += 2) {
            list.put(namesAndQuantities[i], namesAndQuantities[i + 1]);
        }
        return list;
    }
}
