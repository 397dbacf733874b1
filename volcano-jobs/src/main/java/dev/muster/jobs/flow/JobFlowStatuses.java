package dev.muster.jobs.flow;

import com.google.common.collect.ImmutableList;
import dev.muster.graph.GraphRun;
import dev.muster.graph.NodeId;
import dev.muster.jobs.JobPhase;
import dev.muster.jobs.VolcanoJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A JobFlow's status from its jobs and the run of its graph, with Volcano's phase rules. */
final class JobFlowStatuses {
    private JobFlowStatuses() {}

    static JobFlowStatus of(JobFlow flow, List<VolcanoJob> jobs, GraphRun run) {
        List<String> pending = new ArrayList<>();
        List<String> running = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> completed = new ArrayList<>();
        List<String> terminated = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        List<FlowJobStatus> entries = new ArrayList<>();
        List<VolcanoJob> sorted = jobs.stream().sorted(Comparator.comparing(VolcanoJob::name)).toList();
        for (VolcanoJob job : sorted) {
            JobPhase phase = job.status().currentPhase();
            switch (phase) {
                case PENDING -> pending.add(job.name());
                case RUNNING -> running.add(job.name());
                case FAILED -> failed.add(job.name());
                case COMPLETED -> completed.add(job.name());
                case TERMINATED -> terminated.add(job.name());
                // Volcano counts Completing and Terminating jobs in no list at all
                case COMPLETING, TERMINATING -> { }
                case RESTARTING, ABORTING, ABORTED -> unknown.add(job.name());
            }
            Instant start = job.metadata().creationTimestamp();
            entries.add(new FlowJobStatus(job.name(), phase.wireName(), Optional.of(start),
                    job.status().runningDuration().map(start::plus), job.status().retryCount(), ""));
        }
        for (Map.Entry<NodeId, String> skipped : run.skipped().entrySet()) {
            entries.add(new FlowJobStatus(flow.jobName(skipped.getKey().value()), FlowJobStatus.SKIPPED, Optional.empty(), Optional.empty(), 0,
                    skipped.getValue()));
        }
        // a flow that was invalid starts afresh once its spec is fixed
        String previous = flow.previous().reason().equals(JobFlowStatus.INVALID) ? "" : flow.previous().phase();
        String phase = phase(previous, flow.flows().size(), running.size(), completed.size(), failed.size() + terminated.size());
        return new JobFlowStatus(phase, ImmutableList.copyOf(pending), ImmutableList.copyOf(running), ImmutableList.copyOf(failed),
                ImmutableList.copyOf(completed), ImmutableList.copyOf(terminated), ImmutableList.copyOf(unknown), ImmutableList.copyOf(entries), "", "");
    }

    /** Volcano's JobFlow states: Pending to Running once a job runs or completed, Succeed when all completed, Failed on any failure. */
    static String phase(String previous, int flows, int running, int completed, int failedOrTerminated) {
        return switch (previous) {
            case "Succeed", "Failed" -> previous;
            case "Running" -> {
                if (completed == flows) {
                    yield "Succeed";
                }
                yield failedOrTerminated > 0 ? "Failed" : "Running";
            }
            default -> {
                if ((running > 0 || completed > 0) && failedOrTerminated == 0) {
                    yield "Running";
                }
                yield failedOrTerminated > 0 ? "Failed" : "Pending";
            }
        };
    }
}
