package dev.muster.engine.plugins.executorreservation;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A Spark application as its PodGroup and pods show it when a session opens: the PodGroup annotations
 * Muster's Spark feature step writes ({@value #EXPECTED_EXECUTORS}, {@value #GANG_EXECUTORS}), the
 * driver and executor pods by Spark's {@value #ROLE_LABEL} label, and the request of one executor: an
 * executor pod's when one exists, else {@code minResources} less the driver's request, shared by the
 * expected executors.
 *
 * @param driver the driver pod, empty in client mode (the driver runs outside the cluster)
 * @param expected how many executors the application starts with
 * @param gang how many of them are placed only together (0: none)
 * @param perExecutor one executor's request, when it can be known
 * @param deadline when the hold and the gang rule end: the driver's start (else the PodGroup's creation) plus the timeout
 * @param gangDeadline when the gang rule ends sooner: the first executor pod's creation plus the gang wait
 *     (empty while no executor pod exists)
 */
record SparkApplication(JobState job, Optional<TaskState> driver, int expected, int gang, Optional<Resources> perExecutor,
        Instant deadline, Optional<Instant> gangDeadline) {
    static final String EXPECTED_EXECUTORS = "muster.dev/spark-expected-executors";
    static final String GANG_EXECUTORS = "muster.dev/spark-gang-executors";
    /** Spark's pod label; its values are {@value #DRIVER} and {@value #EXECUTOR}. */
    static final String ROLE_LABEL = "spark-role";
    static final String DRIVER = "driver";
    static final String EXECUTOR = "executor";

    SparkApplication {
        requireNonNull(job, "job is null");
        requireNonNull(driver, "driver is null");
        requireNonNull(perExecutor, "perExecutor is null");
        requireNonNull(deadline, "deadline is null");
        requireNonNull(gangDeadline, "gangDeadline is null");
    }

    /**
     * The application of a PodGroup with {@value #EXPECTED_EXECUTORS}; empty for other PodGroups. A
     * malformed annotation is ignored with a warning on the job, so one bad PodGroup never stops the others.
     */
    static Optional<SparkApplication> of(JobState job, Duration timeout, Duration gangWait) {
        String expectedText = job.job().annotations().get(EXPECTED_EXECUTORS);
        if (expectedText == null) {
            return Optional.empty();
        }
        Optional<Integer> expected = count(job, EXPECTED_EXECUTORS, expectedText);
        if (expected.isEmpty()) {
            return Optional.empty();
        }
        int gang = 0;
        String gangText = job.job().annotations().get(GANG_EXECUTORS);
        if (gangText != null) {
            gang = count(job, GANG_EXECUTORS, gangText).orElse(0);
            if (gang > expected.get()) {
                job.recordWarning("PodGroup " + job.id() + ": annotation " + GANG_EXECUTORS + " '" + gangText + "' is more than "
                        + EXPECTED_EXECUTORS + " '" + expectedText + "'; taken as " + expected.get());
                gang = expected.get();
            }
        }
        Optional<TaskState> driver = job.tasks().stream().filter(task -> hasRole(task, DRIVER) && !task.status().isTerminated()).findFirst();
        Instant since = driver.flatMap(task -> task.task().started()).orElse(job.job().created());
        Optional<Instant> firstExecutor = job.tasks().stream().filter(task -> hasRole(task, EXECUTOR)).map(task -> task.task().created())
                .min(Instant::compareTo);
        return Optional.of(new SparkApplication(job, driver, expected.get(), gang, perExecutor(job, driver, expected.get()),
                since.plus(timeout), firstExecutor.map(created -> created.plus(gangWait))));
    }

    private static Optional<Integer> count(JobState job, String key, String text) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= 0) {
                return Optional.of(value);
            }
        } catch (NumberFormatException e) {
            // reported below, with the value
        }
        job.recordWarning("PodGroup " + job.id() + ": annotation " + key + " '" + text
                + "' is not a whole number of executors (0 or more); no executor reservation");
        return Optional.empty();
    }

    private static Optional<Resources> perExecutor(JobState job, Optional<TaskState> driver, int expected) {
        Optional<TaskState> executor = job.tasks().stream().filter(task -> hasRole(task, EXECUTOR) && !task.bestEffort()).findFirst();
        if (executor.isPresent()) {
            return Optional.of(executor.get().request());
        }
        if (expected == 0 || job.job().minResources().isEmpty()) {
            return Optional.empty();
        }
        Resources driverRequest = driver.map(TaskState::request).orElse(Resources.EMPTY);
        Resources executors = job.job().minResources().get().subtractFloored(driverRequest);
        return executors.isEmpty() ? Optional.empty() : Optional.of(executors.multiply(1.0 / expected));
    }

    static boolean hasRole(TaskState task, String role) {
        return role.equals(task.task().labels().get(ROLE_LABEL));
    }

    boolean isExecutor(TaskState task) {
        return task.job() == job && hasRole(task, EXECUTOR);
    }

    /** Executors holding resources now, as the session's actions leave them. */
    int placedExecutors() {
        int placed = 0;
        for (TaskState task : job.tasks()) {
            if (hasRole(task, EXECUTOR) && task.status().isAllocated()) {
                placed++;
            }
        }
        return placed;
    }

    /** Executor pods that exist and have not ended. */
    int existingExecutors() {
        return (int) job.tasks().stream().filter(task -> hasRole(task, EXECUTOR) && !task.status().isTerminated()).count();
    }

    /** Whether the driver was placed by an earlier cycle and runs or is bound. */
    boolean driverBound() {
        return driver.isPresent() && (driver.get().status() == TaskStatus.RUNNING || driver.get().status() == TaskStatus.BOUND);
    }

    boolean expired(Instant now) {
        return !now.isBefore(deadline);
    }

    /**
     * Whether its first executors are still placed only together: they make a gang, and neither the hold
     * timeout nor the gang wait has passed. Past the gang wait Spark runs tasks on whatever executors it
     * has, so room held idle for the rest of the gang would only delay it.
     */
    boolean gangApplies(Instant now) {
        return gang > 0 && !expired(now) && gangDeadline.map(now::isBefore).orElse(true);
    }

    /** Executors still to come: the expected less those placed, never below 0. */
    int missing() {
        return Math.max(0, expected - placedExecutors());
    }

    /** How many executors must be placed together now: the gang less those already placed, or 0 once it is whole. */
    int gangShortfall() {
        int placed = placedExecutors();
        return placed >= gang ? 0 : gang - placed;
    }
}
