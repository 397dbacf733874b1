package dev.muster.runtime.controller;

import static java.util.Objects.requireNonNull;

import com.google.inject.Binder;
import com.google.inject.Scopes;
import com.google.inject.multibindings.Multibinder;

/**
 * Contributes {@link Controller}s, and the CRDs they need served, to the runtime from a module, as a
 * bridge's module does: {@code controllerBinder(binder()).addController(MyController.class)}. Each
 * controller is a singleton; the runtime gets them all as one set.
 */
public final class ControllerBinder {
    private final Binder binder;
    private final Multibinder<Controller> controllers;
    private final Multibinder<CustomResourceDefinitions> definitions;

    private ControllerBinder(Binder binder) {
        this.binder = requireNonNull(binder, "binder is null");
        this.controllers = Multibinder.newSetBinder(binder, Controller.class);
        this.definitions = Multibinder.newSetBinder(binder, CustomResourceDefinitions.class);
    }

    /** The sets of controllers and CRDs in the injector being built; declaring them alone makes them exist, empty. */
    public static ControllerBinder controllerBinder(Binder binder) {
        return new ControllerBinder(binder);
    }

    public ControllerBinder addController(Class<? extends Controller> type) {
        binder.bind(type).in(Scopes.SINGLETON);
        controllers.addBinding().to(type);
        return this;
    }

    /** CRD manifests at {@code resource} on {@code owner}'s class path, for the embedded API server. */
    public ControllerBinder addCustomResourceDefinitions(Class<?> owner, String resource) {
        definitions.addBinding().toInstance(new CustomResourceDefinitions(owner, resource));
        return this;
    }
}
