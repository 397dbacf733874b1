package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;

/** Collects the problems of one read, in the order they are found. Not thread-safe. */
final class Problems {
    private final List<ManifestProblem> problems = new ArrayList<>();

    void add(ManifestProblem problem) {
        problems.add(requireNonNull(problem, "problem is null"));
    }

    ImmutableList<ManifestProblem> list() {
        return ImmutableList.copyOf(problems);
    }
}
