package dev.muster.sim.spark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one policy did with the applications.
 *
 * @param averageJctSeconds completion less arrival, over the completed applications
 * @param p95JctSeconds the nearest-rank 95th percentile of the same
 * @param deadlocked applications that never completed: the run stopped when nothing changed any more
 * @param starved applications whose bound driver had no executor for longer than the starvation threshold at some point
 * @param wastedExecutorSeconds executor-seconds bound while their application's tasks could not run yet
 * @param idleDriverSeconds driver-seconds bound while the application's tasks could not run
 * @param endSeconds when the run stopped
 */
public record SparkRunResult(int applications, int completed, double averageJctSeconds, double p95JctSeconds, int deadlocked, int starved,
        double wastedExecutorSeconds, double idleDriverSeconds, double endSeconds) {

    static SparkRunResult of(List<SparkAppRun> apps, long endMillis) {
        List<Double> jcts = new ArrayList<>();
        int starved = 0;
        double wasted = 0;
        double idle = 0;
        for (SparkAppRun app : apps) {
            if (app.completedAt >= 0) {
                jcts.add((app.completedAt - app.spec.arrivalMillis()) / 1000.0);
            }
            starved += app.starved ? 1 : 0;
            wasted += app.wastedExecutorMillis / 1000.0;
            idle += app.idleDriverMillis / 1000.0;
        }
        Collections.sort(jcts);
        double average = jcts.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        double p95 = jcts.isEmpty() ? Double.NaN : jcts.get((int) Math.ceil(0.95 * jcts.size()) - 1);
        return new SparkRunResult(apps.size(), jcts.size(), average, p95, apps.size() - jcts.size(), starved, wasted, idle, endMillis / 1000.0);
    }
}
