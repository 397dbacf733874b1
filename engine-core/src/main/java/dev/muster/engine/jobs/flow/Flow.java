package dev.muster.engine.jobs.flow;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/** One {@code spec.flows[]} entry: the JobTemplate {@code name} runs after every flow in {@code targets} completed. */
public record Flow(String name, ImmutableList<String> targets) {
    public Flow {
        requireNonNull(name, "name is null");
        targets = ImmutableList.copyOf(targets);
    }
}
