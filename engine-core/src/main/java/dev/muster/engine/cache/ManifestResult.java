package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.ClusterSnapshot;

/**
 * What a set of manifests holds: the snapshot built from every object that could be read, and what
 * was wrong with the rest, in reading order.
 */
public record ManifestResult(ClusterSnapshot snapshot, ImmutableList<ManifestProblem> problems) {
    public ManifestResult {
        requireNonNull(snapshot, "snapshot is null");
        problems = ImmutableList.copyOf(problems);
    }

    /** The problems of severity {@link ManifestProblem.Severity#ERROR}. */
    public ImmutableList<ManifestProblem> errors() {
        return problems.stream()
                .filter(problem -> problem.severity() == ManifestProblem.Severity.ERROR)
                .collect(ImmutableList.toImmutableList());
    }
}
