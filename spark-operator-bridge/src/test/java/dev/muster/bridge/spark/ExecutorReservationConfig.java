package dev.muster.bridge.spark;

import static com.google.common.base.Preconditions.checkState;

import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.plugins.executorreservation.ExecutorReservationPlugin;

/**
 * The scheduler configuration of the executor reservation tests: Volcano's built-in configuration
 * ({@code builtin:volcano}, Muster's default until issue 18, against which the plugin was measured) with the
 * {@code executorreservation} plugin in its first tier, and {@code proportion} without
 * {@code admit-within-deserved}. That argument makes a queue's deserved share its demand, in which an
 * application's executors count only once they exist, so with it the queue alone would keep another job
 * out (its admission counts the application's whole {@code minResources}), hold or no hold.
 */
public final class ExecutorReservationConfig {
    private ExecutorReservationConfig() {}

    /** That configuration, the hold ending {@code holdTimeout} (such as {@code 60s}) after the driver started. */
    public static String withExecutorReservation(String holdTimeout) {
        String conformance = "  - name: conformance\n";
        String proportion = "  - name: proportion\n    arguments:\n      admit-within-deserved: true\n";
        String text = DefaultSchedulerConfig.volcanoText();
        checkState(text.contains(conformance) && text.contains(proportion), "not the builtin:volcano configuration expected:\n%s", text);
        return text.replace(proportion, "  - name: proportion\n").replace(conformance, conformance
                + "  - name: " + ExecutorReservationPlugin.NAME + "\n    arguments:\n      hold-timeout: " + holdTimeout + "\n");
    }
}
