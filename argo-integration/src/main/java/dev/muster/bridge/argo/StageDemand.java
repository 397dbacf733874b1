package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.Resources;

/**
 * What one stage of a workflow runs at once: a step group, or the tasks of one DAG level.
 *
 * @param stage Argo's name of the group ({@code main[1]}) or {@code <template> level <n>} for a DAG level
 * @param pods how many pods run at once, at most
 * @param request the sum of those pods' requests
 */
public record StageDemand(String stage, int pods, Resources request) {
    public StageDemand {
        requireNonNull(stage, "stage is null");
        requireNonNull(request, "request is null");
    }

    /** {@code main[1] needs cpu 9, memory 0 (3 pods)}. */
    public String describe() {
        return stage + " needs " + describe(request) + " (" + pods + (pods == 1 ? " pod)" : " pods)");
    }

    /** {@code cpu 9, memory 12Gi}: the dimensions asked for, in Kubernetes units; {@code nothing} when none is. */
    static String describe(Resources resources) {
        StringBuilder text = new StringBuilder();
        for (String name : resources.names()) {
            if (resources.get(name) > Resources.EPSILON) {
                text.append(text.length() == 0 ? "" : ", ").append(name).append(' ').append(resources.format(name));
            }
        }
        return text.length() == 0 ? "nothing" : text.toString();
    }
}
