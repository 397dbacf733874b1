package dev.muster.cli.fuzz;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import java.util.Optional;

/**
 * One mutated input: the cluster file's bytes, the configuration's (when the mutation changed it), and
 * which of the base cluster's documents the mutation touched. Documents are counted as in the base file.
 *
 * @param mutation what was done, for the report of a failing seed
 * @param touched the indexes of the base documents the mutation changed or may have destroyed
 * @param fromDocument every base document from this index on may be lost (a cut file); the size of the
 *     base when none is
 * @param inert the mutation changes no resource that another object is placed against, so every bind
 *     the base session made must be made again, on the same node
 */
record FuzzInput(String mutation, byte[] cluster, Optional<byte[]> config, ImmutableSet<Integer> touched, int fromDocument,
        boolean inert) {
    FuzzInput {
        requireNonNull(mutation, "mutation is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(config, "config is null");
        touched = ImmutableSet.copyOf(touched);
    }

    boolean untouched(int document) {
        return !touched.contains(document) && document < fromDocument;
    }
}
