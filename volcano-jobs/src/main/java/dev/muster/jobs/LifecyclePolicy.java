package dev.muster.jobs;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A job- or task-level {@code policies[]} entry: on one of {@code events} (or a container exit code),
 * take {@code action}, after {@code timeout} if one is set. The manifest's single event and its list
 * of events are merged into one set.
 */
public record LifecyclePolicy(ImmutableSet<JobEvent> events, OptionalInt exitCode, JobAction action, Optional<Duration> timeout) {
    public LifecyclePolicy {
        events = ImmutableSet.copyOf(events);
        requireNonNull(exitCode, "exitCode is null");
        requireNonNull(action, "action is null");
        requireNonNull(timeout, "timeout is null");
        checkArgument(!events.isEmpty() || exitCode.isPresent(), "a policy needs an event or an exit code");
    }

    public static LifecyclePolicy onEvent(JobEvent event, JobAction action) {
        return new LifecyclePolicy(ImmutableSet.of(event), OptionalInt.empty(), action, Optional.empty());
    }

    public static LifecyclePolicy onExitCode(int exitCode, JobAction action) {
        return new LifecyclePolicy(ImmutableSet.of(), OptionalInt.of(exitCode), action, Optional.empty());
    }

    public LifecyclePolicy withTimeout(Duration value) {
        return new LifecyclePolicy(events, exitCode, action, Optional.of(value));
    }

    /** Whether the policy names the event, directly or through {@code *}. */
    public boolean matchesEvent(JobEvent event) {
        return events.contains(event) || events.contains(JobEvent.ANY);
    }
}
