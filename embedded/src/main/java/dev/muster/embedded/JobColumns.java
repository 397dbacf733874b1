package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.Function;

/**
 * kube-apiserver v1.34.4's table columns of a batch/v1 Job ({@code pkg/printers/internalversion/printers.go},
 * {@code printJob}): its status from its conditions, completions, how long it ran, its age, and (wide)
 * its containers, images and selector.
 */
final class JobColumns {
    private static final String STATUS = "status";

    private JobColumns() {}

    static ImmutableList<Column> columns(Function<JsonNode, Object> age, Clock clock) {
        return ImmutableList.of(
                Column.string("Status", 0, JobColumns::status),
                Column.string("Completions", 0, JobColumns::completions),
                Column.string("Duration", 0, job -> duration(job, clock)),
                Column.string("Age", 0, age),
                Column.string("Containers", 1, job -> WorkloadColumns.containers(job, "name")),
                Column.string("Images", 1, job -> WorkloadColumns.containers(job, "image")),
                Column.string("Selector", 1, job -> WorkloadColumns.selector(job.path("spec").path("selector"))));
    }

    /** {@code printCronJob}'s columns. */
    static ImmutableList<Column> cronJobs(Function<JsonNode, Object> age, Clock clock) {
        return ImmutableList.of(
                Column.string("Schedule", 0, cronJob -> cronJob.path("spec").path("schedule").asText()),
                Column.string("Timezone", 0, cronJob -> cronJob.path("spec").path("timeZone").asText(WorkloadColumns.NONE)),
                // printBoolPtr's words
                new Column("Suspend", "boolean", 0, cronJob -> !cronJob.path("spec").path("suspend").isBoolean() ? "<unset>"
                        : cronJob.path("spec").path("suspend").asBoolean() ? "True" : "False"),
                new Column("Active", "integer", 0, cronJob -> cronJob.path(STATUS).path("active").size()),
                Column.string("Last Schedule", 0, cronJob -> lastSchedule(cronJob, clock)),
                Column.string("Age", 0, age),
                Column.string("Containers", 1, cronJob -> WorkloadColumns.containers(cronJob.path("spec").path("jobTemplate"), "name")),
                Column.string("Images", 1, cronJob -> WorkloadColumns.containers(cronJob.path("spec").path("jobTemplate"), "image")),
                Column.string("Selector", 1, cronJob -> WorkloadColumns.selector(cronJob.path("spec").path("jobTemplate").path("spec")
                        .path("selector"))));
    }

    private static Object lastSchedule(JsonNode cronJob, Clock clock) {
        String last = cronJob.path(STATUS).path("lastScheduleTime").asText("");
        try {
            return last.isEmpty() ? WorkloadColumns.NONE : Tables.age(Duration.between(Instant.parse(last), clock.instant()));
        } catch (DateTimeParseException e) {
            return WorkloadColumns.NONE;
        }
    }

    private static Object status(JsonNode job) {
        if (condition(job, "Complete")) {
            return "Complete";
        }
        if (condition(job, "Failed")) {
            return "Failed";
        }
        if (job.path("metadata").hasNonNull("deletionTimestamp")) {
            return "Terminating";
        }
        for (String type : List.of("Suspended", "FailureTarget", "SuccessCriteriaMet")) {
            if (condition(job, type)) {
                return type;
            }
        }
        return "Running";
    }

    private static boolean condition(JsonNode job, String type) {
        for (JsonNode condition : job.path(STATUS).path("conditions")) {
            if (condition.path("type").asText().equals(type) && condition.path(STATUS).asText().equals("True")) {
                return true;
            }
        }
        return false;
    }

    private static Object completions(JsonNode job) {
        int succeeded = job.path(STATUS).path("succeeded").asInt(0);
        JsonNode spec = job.path("spec");
        if (spec.hasNonNull("completions")) {
            return succeeded + "/" + spec.path("completions").asInt();
        }
        int parallelism = spec.path("parallelism").asInt(0);
        return parallelism > 1 ? succeeded + "/1 of " + parallelism : succeeded + "/1";
    }

    private static Object duration(JsonNode job, Clock clock) {
        try {
            String started = job.path(STATUS).path("startTime").asText("");
            if (started.isEmpty()) {
                return "";
            }
            String completed = job.path(STATUS).path("completionTime").asText("");
            Instant end = completed.isEmpty() ? clock.instant() : Instant.parse(completed);
            return Tables.age(Duration.between(Instant.parse(started), end));
        } catch (DateTimeParseException e) {
            return "";
        }
    }
}
