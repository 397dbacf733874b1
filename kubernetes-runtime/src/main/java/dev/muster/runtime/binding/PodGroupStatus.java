package dev.muster.runtime.binding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.framework.SessionResult.JobOutcome;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobOrigin;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskStatus;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * A Volcano PodGroup's {@code status} after a session, as Volcano's scheduler writes it: the phase
 * the session computed; {@code running}, {@code succeeded}, {@code failed} pod counts; and the gang
 * plugin's conditions, {@code Unschedulable} while the gang waits and {@code Scheduled} once it is
 * placed. The Unschedulable message is the one {@code what-if} prints: the session's reason, followed by
 * the workflow, run and step the job comes from when its {@link dev.muster.engine.model.OriginAnnotations}
 * name them (the Events on the PodGroup and its pods carry the same message); its reason says which kind of
 * wait it is: {@code InvalidSpec} (the PodGroup fails validation or names no existing queue),
 * {@code NotEnoughTasks} (fewer pods exist than {@code minMember}: Volcano's reason) or
 * {@code NotEnoughResources}. Muster adds {@code Reserved} (reason {@code RoomHeld}) while a plugin holds
 * room for pods still to come, with what is held in its message (the executors of a Spark application),
 * and sets it False ({@code ReservationEnded}) when the hold ends. A PodGroup none of whose pods exist yet gets no Unschedulable condition,
 * as in Volcano: its pods may simply not be created, or not be seen, yet. A
 * condition's {@code lastTransitionTime} changes only when its status does, so an unchanged outcome
 * gives an unchanged status, which is not written again.
 */
final class PodGroupStatus {
    static final String UNSCHEDULABLE = "Unschedulable";
    static final String SCHEDULED = "Scheduled";
    static final String NOT_ENOUGH_RESOURCES = "NotEnoughResources";
    static final String NOT_ENOUGH_TASKS = "NotEnoughTasks";
    static final String INVALID_SPEC = "InvalidSpec";
    /** Muster's condition: room is held for pods still to come, such as a Spark application's executors. */
    static final String RESERVED = "Reserved";
    static final String ROOM_HELD = "RoomHeld";
    static final String RESERVATION_ENDED = "ReservationEnded";
    /** Volcano's reason for the Scheduled condition. */
    static final String GANG_READY = "tasks in gang are ready to be scheduled";

    private PodGroupStatus() {}

    /** The status to write: the current one with the fields the scheduler owns replaced. */
    static ObjectNode desired(ObjectNode current, Job job, JobOutcome outcome, Instant now) {
        ObjectNode status = current.deepCopy();
        status.put("phase", outcome.phase().text());
        status.put("running", count(job, TaskStatus.RUNNING));
        status.put("succeeded", count(job, TaskStatus.SUCCEEDED));
        status.put("failed", count(job, TaskStatus.FAILED));
        if (outcome.ready()) {
            setCondition(status, SCHEDULED, true, GANG_READY, "", now);
            if (condition(status, UNSCHEDULABLE).isPresent()) {
                setCondition(status, UNSCHEDULABLE, false, GANG_READY, "", now);
            }
        } else if (outcome.reason().isPresent()) {
            Optional<String> reason = unschedulableReason(job);
            if (reason.isPresent()) {
                setCondition(status, UNSCHEDULABLE, true, reason.get(), JobOrigin.reasonWithOrigin(job, outcome.reason().get()), now);
            }
        }
        if (outcome.reservation().isPresent()) {
            setCondition(status, RESERVED, true, ROOM_HELD, outcome.reservation().get(), now);
        } else if (condition(status, RESERVED).filter(condition -> condition.path("status").asText().equals("True")).isPresent()) {
            setCondition(status, RESERVED, false, RESERVATION_ENDED, "", now);
        }
        return status;
    }

    /** The Unschedulable reason for a job that is not ready; empty while none of its pods exists. */
    static Optional<String> unschedulableReason(Job job) {
        if (!job.problems().isEmpty()) {
            return Optional.of(INVALID_SPEC);
        }
        if (job.tasks().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(job.tasks().size() < job.minMember() ? NOT_ENOUGH_TASKS : NOT_ENOUGH_RESOURCES);
    }

    /** The reason of the Unschedulable condition, if it is true. */
    static Optional<String> unschedulableConditionReason(ObjectNode status) {
        return condition(status, UNSCHEDULABLE)
                .filter(condition -> condition.path("status").asText().equals("True"))
                .map(condition -> condition.path("reason").asText(""));
    }

    /** The Unschedulable message the status carries, if the condition is true. */
    static Optional<String> unschedulableMessage(ObjectNode status) {
        return condition(status, UNSCHEDULABLE)
                .filter(condition -> condition.path("status").asText().equals("True"))
                .map(condition -> condition.path("message").asText(""));
    }

    /** Whether the status has the Scheduled condition, true. */
    static boolean scheduled(ObjectNode status) {
        return condition(status, SCHEDULED).filter(condition -> condition.path("status").asText().equals("True")).isPresent();
    }

    private static int count(Job job, TaskStatus status) {
        int count = 0;
        for (Task task : job.tasks()) {
            if (task.status() == status) {
                count++;
            }
        }
        return count;
    }

    private static Optional<ObjectNode> condition(ObjectNode status, String type) {
        for (JsonNode condition : status.path("conditions")) {
            if (condition.isObject() && condition.path("type").asText().equals(type)) {
                return Optional.of((ObjectNode) condition);
            }
        }
        return Optional.empty();
    }

    private static void setCondition(ObjectNode status, String type, boolean value, String reason, String message, Instant now) {
        String text = value ? "True" : "False";
        Optional<ObjectNode> existing = condition(status, type);
        ObjectNode condition;
        if (existing.isPresent()) {
            condition = existing.get();
        } else {
            JsonNode conditions = status.path("conditions");
            ArrayNode list = conditions.isArray() ? (ArrayNode) conditions : status.putArray("conditions");
            condition = list.addObject().put("type", type);
        }
        if (!condition.path("status").asText().equals(text) || !condition.has("lastTransitionTime")) {
            condition.put("lastTransitionTime", DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS)));
        }
        condition.put("status", text);
        condition.put("reason", reason);
        condition.put("message", message);
    }
}
