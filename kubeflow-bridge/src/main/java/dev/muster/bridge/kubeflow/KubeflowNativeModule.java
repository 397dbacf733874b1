package dev.muster.bridge.kubeflow;

import static dev.muster.runtime.controller.ControllerBinder.controllerBinder;

import com.google.inject.AbstractModule;

/**
 * Native mode of the Kubeflow bridge: the {@link NativeJobController}. Goes with {@link KubeflowBridgeModule}, which
 * brings the CRDs and reports bad input and pending reasons; never with a running training operator.
 */
public final class KubeflowNativeModule extends AbstractModule {
    @Override
    protected void configure() {
        controllerBinder(binder()).addController(NativeJobController.class);
    }
}
