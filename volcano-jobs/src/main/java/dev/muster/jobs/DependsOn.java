package dev.muster.jobs;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.graph.Join;

/**
 * A task's {@code dependsOn}: the tasks it waits for, and whether it waits for {@code all} of them
 * ({@link Join#ALL}, the default) or {@code any} ({@link Join#ANY}). Volcano treats {@code any}
 * with a single name as {@code all}, which is the same thing.
 */
public record DependsOn(ImmutableList<String> names, Join iteration) {
    public DependsOn {
        names = ImmutableList.copyOf(names);
        requireNonNull(iteration, "iteration is null");
        checkArgument(!names.isEmpty(), "dependsOn names no task");
    }
}
