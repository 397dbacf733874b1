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

    /** Edit distance counting a swap of two neighbouring letters as one edit ({@code gnag} is one from {@code gang}). */
    private static int distance(String left, String right) {
        int[][] d = new int[left.length() + 1][right.length() + 1];
        for (int i = 0; i <= left.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= right.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= left.length(); i++) {
            for (int j = 1; j <= right.length(); j++) {
                int cost = left.charAt(i - 1) == right.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && left.charAt(i - 1) == right.charAt(j - 2) && left.charAt(i - 2) == right.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[left.length()][right.length()];
    }
}
