package dev.muster.bridge.spark.operator;

import static dev.muster.runtime.controller.ControllerBinder.controllerBinder;

import com.google.inject.AbstractModule;

/**
 * The SparkApplication bridge: the {@link SparkApplicationController}, and the spark-operator's CRDs
 * (v2.5.2's) for the embedded API server.
 */
public final class SparkOperatorBridgeModule extends AbstractModule {
    @Override
    protected void configure() {
        controllerBinder(binder())
                .addController(SparkApplicationController.class)
                .addCustomResourceDefinitions(SparkOperatorBridgeModule.class, SparkOperatorApi.CRDS);
    }
}
