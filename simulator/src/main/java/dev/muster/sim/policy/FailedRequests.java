package dev.muster.sim.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * The requests that fit no node in this cycle, reduced to the minimal ones: a request at least as
 * large in every resource as a kept one is implied by it and not kept, and a new one replaces those
 * that are at least as large as itself. Answers whether a request is at least as large as one that
 * failed, in time proportional to the few distinct minimal requests instead of every failed pod.
 * Not thread-safe; one instance per cycle.
 */
final class FailedRequests {
    private final List<double[]> minimal = new ArrayList<>();

    /** Whether {@code request} asks at least as much of every resource as some failed request. */
    boolean coversAny(double[] request) {
        for (double[] smaller : minimal) {
            if (atLeast(request, smaller)) {
                return true;
            }
        }
        return false;
    }

    void add(double[] request) {
        if (coversAny(request)) {
            return;
        }
        minimal.removeIf(kept -> atLeast(kept, request));
        minimal.add(request);
    }

    private static boolean atLeast(double[] larger, double[] smaller) {
        for (int r = 0; r < larger.length; r++) {
            if (larger[r] < smaller[r]) {
                return false;
            }
        }
        return true;
    }
}
