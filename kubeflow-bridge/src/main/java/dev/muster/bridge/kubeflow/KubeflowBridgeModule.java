package dev.muster.bridge.kubeflow;

import static dev.muster.runtime.controller.ControllerBinder.controllerBinder;

import com.google.inject.AbstractModule;

/**
 * The Kubeflow bridge (docs/bridges.md): the {@link TrainingJobController}, and the training operator's
 * TFJob and PyTorchJob CRDs (v1.9.4's) for the embedded API server.
 */
public final class KubeflowBridgeModule extends AbstractModule {
    @Override
    protected void configure() {
        controllerBinder(binder())
                .addController(TrainingJobController.class)
                .addCustomResourceDefinitions(KubeflowBridgeModule.class, KubeflowApi.CRDS);
    }
}
