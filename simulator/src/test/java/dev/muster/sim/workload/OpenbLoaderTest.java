package dev.muster.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.model.Resources;
import org.junit.jupiter.api.Test;

class OpenbLoaderTest {
    @Test
    void readsScheduledPodsAsOnePodJobsWithGpuShares() {
        Workload workload = OpenbLoader.load(PhillyLoaderTest.fixture("openb/openb_pod_list_default_first300.csv"), TraceSelection.ALL);

        assertThat(workload.jobs().size() + workload.skippedJobs()).isEqualTo(300);
        assertThat(workload.problems()).isEmpty();
        WorkloadJob first = workload.jobs().get(0);
        assertThat(first.id()).isEqualTo("openb-pod-0000");
        assertThat(first.gangs().get(0).perPod().milliCpu()).isEqualTo(12_000);
        assertThat(first.gangs().get(0).perPod().get(Resources.GPU)).isEqualTo(1000);
        assertThat(workload.jobs()).filteredOn(job -> job.id().equals("openb-pod-0001")).singleElement()
                .satisfies(job -> assertThat(job.gangs().get(0).perPod().get(Resources.GPU)).isEqualTo(460));
    }
}
