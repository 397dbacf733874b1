package dev.muster.engine.framework;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** Volcano's rules for combining plugins' answers across tiers, where a first non-zero answer is not enough. */
final class TierRules {
    private TierRules() {}

    /**
     * A vote: any reject wins; otherwise a tier with a permit decides; all abstaining means yes
     * (JobPipelined, JobEnqueueable).
     */
    static <T> boolean vote(List<List<T>> tiers, Function<T, Vote> ask) {
        for (List<T> tier : tiers) {
            boolean permitted = false;
            for (T plugin : tier) {
                Vote vote = ask.apply(plugin);
                if (vote == Vote.REJECT) {
                    return false;
                }
                if (vote == Vote.PERMIT) {
                    permitted = true;
                }
            }
            if (permitted) {
                return true;
            }
        }
        return true;
    }

    /** The first tier with any answer decides, all its plugins agreeing; no answer at all means no (JobStarving). */
    static <T> boolean firstTierAgrees(List<List<T>> tiers, java.util.function.Predicate<T> ask) {
        for (List<T> tier : tiers) {
            if (tier.isEmpty()) {
                continue;
            }
            for (T plugin : tier) {
                if (!ask.test(plugin)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /**
     * Volcano's rule: within a tier the non-abstaining answers are intersected, an empty answer empties
     * the result, and the first tier that ends with victims decides.
     */
    static List<TaskState> victims(List<List<VictimSelector>> tiers, Function<VictimSelector, Optional<List<TaskState>>> ask) {
        List<TaskState> victims = null;
        boolean initialised = false;
        for (List<VictimSelector> tier : tiers) {
            for (VictimSelector selector : tier) {
                Optional<List<TaskState>> answer = ask.apply(selector);
                if (answer.isEmpty()) {
                    continue;
                }
                if (answer.get().isEmpty()) {
                    victims = null;
                    break;
                }
                if (!initialised) {
                    victims = new ArrayList<>(answer.get());
                    initialised = true;
                } else {
                    Set<TaskState> allowed = new LinkedHashSet<>(answer.get());
                    List<TaskState> intersection = new ArrayList<>();
                    if (victims != null) {
                        for (TaskState victim : victims) {
                            if (allowed.contains(victim)) {
                                intersection.add(victim);
                            }
                        }
                    }
                    victims = intersection.isEmpty() ? null : intersection;
                }
            }
            if (victims != null) {
                return victims;
            }
        }
        return victims == null ? List.of() : victims;
    }

}
