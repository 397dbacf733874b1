package dev.muster.jobs.flow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * A JobFlow's {@code status} as Volcano writes it: the jobs by phase, one entry per job, and the
 * flow's phase ({@code Pending}, {@code Running}, {@code Succeed}, {@code Failed}).
 *
 * <p>A named problem goes into {@code status.state} beside the phase, as {@code reason} and
 * {@code message}: the shape of a {@code batch.volcano.sh} Job's {@code status.state}. Volcano's own
 * {@code status.conditions} is a map of per-job snapshots keyed by job name, not a list of
 * Kubernetes conditions, so a problem cannot go there without breaking clients that decode it;
 * Volcano's {@code State} has only {@code phase}, and its clients ignore the two extra fields.
 *
 * @param reason one CamelCase word ({@code InvalidJobFlow}, {@code TemplateNotFound}), empty when all is well
 * @param message what is wrong, naming the field and the bad value; empty when all is well
 */
public record JobFlowStatus(
        String phase,
        ImmutableList<String> pendingJobs,
        ImmutableList<String> runningJobs,
        ImmutableList<String> failedJobs,
        ImmutableList<String> completedJobs,
        ImmutableList<String> terminatedJobs,
        ImmutableList<String> unknownJobs,
        ImmutableList<FlowJobStatus> jobStatusList,
        String reason,
        String message) {
    public static final String INVALID = "InvalidJobFlow";
    public static final String TEMPLATE_NOT_FOUND = "TemplateNotFound";
    public static final JobFlowStatus NEW = new JobFlowStatus("", ImmutableList.of(), ImmutableList.of(), ImmutableList.of(), ImmutableList.of(),
            ImmutableList.of(), ImmutableList.of(), ImmutableList.of(), "", "");
    private static final ObjectMapper JSON = new ObjectMapper();

    public JobFlowStatus {
        requireNonNull(phase, "phase is null");
        pendingJobs = ImmutableList.copyOf(pendingJobs);
        runningJobs = ImmutableList.copyOf(runningJobs);
        failedJobs = ImmutableList.copyOf(failedJobs);
        completedJobs = ImmutableList.copyOf(completedJobs);
        terminatedJobs = ImmutableList.copyOf(terminatedJobs);
        unknownJobs = ImmutableList.copyOf(unknownJobs);
        jobStatusList = ImmutableList.copyOf(jobStatusList);
        requireNonNull(reason, "reason is null");
        requireNonNull(message, "message is null");
    }

    /** A flow Muster will not run: {@code Failed}, no jobs, and the problems as {@code InvalidJobFlow}. */
    public static JobFlowStatus invalid(String message) {
        return NEW.withProblem("Failed", INVALID, message);
    }

    public JobFlowStatus withProblem(String phase, String reason, String message) {
        return new JobFlowStatus(phase, pendingJobs, runningJobs, failedJobs, completedJobs, terminatedJobs, unknownJobs, jobStatusList, reason,
                message);
    }

    /** The status as the API server takes it ({@code unKnowJobs} is Volcano's spelling). */
    public ObjectNode toJson() {
        ObjectNode status = JSON.createObjectNode();
        ObjectNode state = status.putObject("state").put("phase", phase);
        if (!reason.isEmpty()) {
            state.put("reason", reason).put("message", message);
        }
        names(status, "pendingJobs", pendingJobs);
        names(status, "runningJobs", runningJobs);
        names(status, "failedJobs", failedJobs);
        names(status, "completedJobs", completedJobs);
        names(status, "terminatedJobs", terminatedJobs);
        names(status, "unKnowJobs", unknownJobs);
        ArrayNode list = status.putArray("jobStatusList");
        for (FlowJobStatus job : jobStatusList) {
            ObjectNode entry = list.addObject().put("name", job.name()).put("state", job.state());
            job.startTimestamp().ifPresent(time -> entry.put("startTimestamp", time.toString()));
            job.endTimestamp().ifPresent(time -> entry.put("endTimestamp", time.toString()));
            if (job.restartCount() > 0) {
                entry.put("restartCount", job.restartCount());
            }
        }
        return status;
    }

    private static void names(ObjectNode status, String field, List<String> names) {
        if (!names.isEmpty()) {
            ArrayNode array = status.putArray(field);
            names.forEach(array::add);
        }
    }
}
