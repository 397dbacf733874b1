package dev.muster.engine.framework;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** How the victim selectors of a session combine their answers (Volcano's Preemptable and Reclaimable). */
final class VictimVote {
    private VictimVote() {}

    /**
     * Volcano's rule: within a tier the non-abstaining answers are intersected, an empty answer empties
     * the result, and the first tier that ends with victims decides.
     */
    static List<TaskState> decide(List<List<VictimSelector>> tiers, Function<VictimSelector, Optional<List<TaskState>>> ask) {
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
