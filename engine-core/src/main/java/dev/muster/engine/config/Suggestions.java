package dev.muster.engine.config;

import java.util.Collection;
import java.util.Optional;

/** Finds the known name nearest to a misspelt one, for "did you mean" hints. */
public final class Suggestions {
    private Suggestions() {}

    public static Optional<String> nearest(String given, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int distance = distance(given.toLowerCase(java.util.Locale.ROOT), candidate.toLowerCase(java.util.Locale.ROOT));
            if (distance < bestDistance || (distance == bestDistance && best != null && candidate.compareTo(best) < 0)) {
                best = candidate;
                bestDistance = distance;
            }
        }
        if (best == null || bestDistance > Math.max(2, given.length() / 3)) {
            return Optional.empty();
        }
        return Optional.of(best);
    }

    public static String didYouMean(String given, Collection<String> known) {
        return nearest(given, known).map(name -> "; did you mean '" + name + "'?").orElse("");
    }

    private static int distance(String left, String right) {
        int[] previous = new int[right.length() + 1];
        int[] current = new int[right.length() + 1];
        for (int j = 0; j <= right.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= left.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= right.length(); j++) {
                int cost = left.charAt(i - 1) == right.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[right.length()];
    }
}
