package dev.muster.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.graph.NodeId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlibabaDagLoaderTest {
    @Test
    void readsEveryFinishedJobOfTheSampleAsAGraphOfGangs() {
        Workload workload = AlibabaDagLoader.load(PhillyLoaderTest.fixture("alibaba_v2018_dag/batch_task_50_dag_jobs.csv"), TraceSelection.ALL, 256);

        assertThat(workload.jobs().size() + workload.skippedJobs()).isEqualTo(50);
        assertThat(workload.jobs().stream().mapToInt(job -> job.gangs().size()).sum()).isGreaterThan(workload.jobs().size());
        assertThat(workload.jobs().get(0).arrivalMillis()).isZero();
    }

    @Test
    void taskNamesGiveDependenciesAndInstancesGiveGangs(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("tasks.csv");
        Files.writeString(trace, """
                task_name,instance_num,job_name,status,start_time,end_time,duration,plan_cpu,plan_mem
                M1,3,j_1,Terminated,100,110,10,50,0.2
                M2_Stg8,1,j_1,Terminated,100,105,5,100,0.2
                R3_1_2_,1000,j_1,Terminated,120,130,0.5,100,0.4
                M1,1,j_2,Running,200,0,0,100,0.2
                """);

        Workload workload = AlibabaDagLoader.load(trace, TraceSelection.ALL, 256);

        assertThat(workload.skippedJobs()).isEqualTo(1);
        WorkloadJob job = workload.jobs().get(0);
        assertThat(job.graph().parents(NodeId.of("task-3"))).extracting(edge -> edge.parent().value()).containsExactly("task-1", "task-2");
        assertThat(job.gangs()).extracting(GangSpec::pods).containsExactly(3, 1, 256);
        assertThat(job.gangs().get(0).perPod().milliCpu()).isEqualTo(500);
        assertThat(job.gangs().get(2).durationMillis()).isEqualTo(500);
    }

    @Test
    void aBadRowLeavesItsJobOutWithTheLineNumber(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("tasks.csv");
        Files.writeString(trace, """
                task_name,instance_num,job_name,status,start_time,end_time,duration,plan_cpu,plan_mem
                M1,1,j_1,Terminated,100,110,10,,0.2
                M2_1,1,j_1,Terminated,110,120,10,100,0.2
                M1,1,j_2,Terminated,100,110,10,100,0.2
                """);

        Workload workload = AlibabaDagLoader.load(trace, TraceSelection.ALL, 256);

        assertThat(workload.jobs()).extracting(WorkloadJob::id).containsExactly("j_2");
        assertThat(workload.skippedJobs()).isEqualTo(1);
        assertThat(workload.problems()).extracting(LoadProblem::describe).containsExactly("tasks.csv:2: plan_cpu is not a number: '' (job j_1 left out)");
    }
}
