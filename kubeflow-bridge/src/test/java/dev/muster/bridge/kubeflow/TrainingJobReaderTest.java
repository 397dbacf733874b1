package dev.muster.bridge.kubeflow;

import static dev.muster.bridge.kubeflow.TestingJobs.example;
import static dev.muster.bridge.kubeflow.TestingJobs.replicaSpec;
import static dev.muster.bridge.kubeflow.TestingJobs.schedulingPolicy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.bridge.kubeflow.TrainingJob.ElasticRange;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TrainingJobReaderTest {
    @Test
    void theDistributedMnistTfJobIsAGangOfAChiefAParameterServerAndTwoWorkers() {
        TrainingJobReader.Read read = TrainingJobReader.read(TrainingKind.TFJOB, example(TestingJobs.TF_DIST_MNIST));

        assertThat(read.problems()).isEmpty();
        assertThat(read.job().name()).isEqualTo("dist-mnist-for-e2e-test");
        assertThat(read.job().replicas()).containsExactly(entry("Chief", 1), entry("PS", 1), entry("Worker", 2));
        assertThat(read.job().minMember()).isEqualTo(4);
        assertThat(read.job().schedulingPolicy()).isEqualTo(TrainingJob.SchedulingPolicy.NONE);
    }

    @Test
    void theElasticEchoPyTorchJobCarriesItsRange() {
        TrainingJobReader.Read read = TrainingJobReader.read(TrainingKind.PYTORCHJOB, example(TestingJobs.PYTORCH_ELASTIC_ECHO));

        assertThat(read.problems()).isEmpty();
        assertThat(read.job().replicas()).containsEntry("Worker", 2).hasSize(1);
        assertThat(read.job().elastic()).contains(new ElasticRange(1, 2));
    }

    @Test
    void anAbsentReplicaCountIsTheOperatorsDefaultOfOne() {
        ObjectNode job = example(TestingJobs.PYTORCH_CPU_DEMO);
        replicaSpec(job, "Worker").remove("replicas");

        TrainingJobReader.Read read = TrainingJobReader.read(TrainingKind.PYTORCHJOB, job);

        assertThat(read.problems()).isEmpty();
        assertThat(read.job().replicas()).containsEntry("Worker", 1).containsEntry("Master", 1);
    }

    @Test
    void theSchedulingPolicyIsRead() {
        ObjectNode job = example(TestingJobs.PYTORCH_MNIST_NCCL);
        schedulingPolicy(job).put("minAvailable", 1).put("queue", "research").put("priorityClass", "high").put("scheduleTimeoutSeconds", 30)
                .putObject("minResources").put("cpu", "2").put("memory", "4Gi");

        TrainingJob read = TrainingJobReader.read(TrainingKind.PYTORCHJOB, job).job();

        assertThat(read.schedulingPolicy()).isEqualTo(new TrainingJob.SchedulingPolicy(Optional.of(1), Optional.of("research"),
                Optional.of("high"), Optional.of(30), Optional.of(JsonNodeFactory.instance.objectNode().put("cpu", "2").put("memory", "4Gi"))));
        assertThat(read.minMember()).isEqualTo(1);
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("an unknown replica type", TestingJobs.TF_DIST_MNIST,
                        (Consumer<ObjectNode>) job -> replicaSpec(job, "Evaluater").put("replicas", 1),
                        "spec.tfReplicaSpecs.Evaluater: unknown replica type 'Evaluater' of a TFJob (known: Chief, Evaluator, Master, PS, Worker)"),
                Arguments.of("a PyTorchJob with a TFJob's replica type", TestingJobs.PYTORCH_CPU_DEMO,
                        (Consumer<ObjectNode>) job -> replicaSpec(job, "PS").put("replicas", 1),
                        "spec.pytorchReplicaSpecs.PS: unknown replica type 'PS' of a PyTorchJob (known: Master, Worker)"),
                Arguments.of("negative replicas", TestingJobs.TF_DIST_MNIST,
                        (Consumer<ObjectNode>) job -> replicaSpec(job, "Worker").put("replicas", -2),
                        "spec.tfReplicaSpecs.Worker.replicas: -2 is negative"),
                Arguments.of("replicas that are not a number", TestingJobs.TF_DIST_MNIST,
                        (Consumer<ObjectNode>) job -> replicaSpec(job, "PS").put("replicas", "two"),
                        "spec.tfReplicaSpecs.PS.replicas: 'two' is not an integer"),
                Arguments.of("minAvailable above the total replicas", TestingJobs.TF_DIST_MNIST,
                        (Consumer<ObjectNode>) job -> schedulingPolicy(job).put("minAvailable", 5),
                        "spec.runPolicy.schedulingPolicy.minAvailable: 5 is above the 4 replicas of the job, so the gang could never start"),
                Arguments.of("a negative schedule timeout", TestingJobs.PYTORCH_CPU_DEMO,
                        (Consumer<ObjectNode>) job -> schedulingPolicy(job).put("scheduleTimeoutSeconds", -1),
                        "spec.runPolicy.schedulingPolicy.scheduleTimeoutSeconds: -1 is negative"),
                Arguments.of("an elastic minimum above the maximum", TestingJobs.PYTORCH_ELASTIC_ECHO,
                        (Consumer<ObjectNode>) job -> ((ObjectNode) job.path("spec").path("elasticPolicy")).put("minReplicas", 3),
                        "spec.elasticPolicy.minReplicas: 3 is negative or above maxReplicas 2"),
                Arguments.of("a minResources entry that is not a quantity", TestingJobs.TF_DIST_MNIST,
                        (Consumer<ObjectNode>) job -> schedulingPolicy(job).putObject("minResources").put("cpu", "four"),
                        "spec.runPolicy.schedulingPolicy.minResources.cpu: 'four' is not a Kubernetes quantity"),
                Arguments.of("a negative minResources entry", TestingJobs.TF_DIST_MNIST,
                        (Consumer<ObjectNode>) job -> schedulingPolicy(job).putObject("minResources").put("memory", "-1Gi"),
                        "spec.runPolicy.schedulingPolicy.minResources.memory: '-1Gi' is negative"),
                Arguments.of("no replica specs", TestingJobs.PYTORCH_CPU_DEMO,
                        (Consumer<ObjectNode>) job -> ((ObjectNode) job.path("spec")).remove("pytorchReplicaSpecs"),
                        "spec.pytorchReplicaSpecs: must name at least one replica type (known: Master, Worker)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void badInputNamesTheFieldAndTheValue(String description, String example, Consumer<ObjectNode> change, String problem) {
        ObjectNode job = example(example);
        change.accept(job);

        TrainingJobReader.Read read = TrainingJobReader.read(TestingJobs.kindOf(job), job);

        assertThat(read.problems()).extracting(FieldProblem::toString).containsExactly(problem);
        assertThat(read.job().name()).isEqualTo(job.path("metadata").path("name").asText());
    }

    @Test
    void aJobMarkedSucceededIsFinished() {
        ObjectNode job = example(TestingJobs.TF_DIST_MNIST);
        job.with("status").putArray("conditions").addObject().put("type", "Succeeded").put("status", "True");

        assertThat(TrainingJobReader.read(TrainingKind.TFJOB, job).job().finished()).isTrue();
        assertThat(TrainingJobReader.read(TrainingKind.TFJOB, example(TestingJobs.TF_DIST_MNIST)).job().finished()).isFalse();
    }
}
