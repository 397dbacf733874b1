package dev.muster.cli;

import com.google.common.collect.ImmutableList;
import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import com.google.inject.ProvisionException;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.ConfigException;
import dev.muster.runtime.KubernetesModule;
import dev.muster.runtime.KubernetesRuntime;
import dev.muster.runtime.RuntimeModule;
import dev.muster.runtime.RuntimeOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.List;

/**
 * Where {@code muster run} and {@code muster up} pick the modules of the runtime: the engine with
 * every built-in plugin, the one client, the runtime, and the modules that contribute controllers
 * (Volcano's job controllers, bridges). Both commands assemble it here, the same way.
 */
final class RuntimeAssembly {
    private RuntimeAssembly() {}

    /**
     * The runtime for one API server, not started.
     *
     * @throws ConfigException when the configuration does not parse with the installed plugins
     */
    static KubernetesRuntime create(KubernetesClient client, Clock clock, RuntimeOptions options, List<Module> contributions) {
        return injector(client, clock, options, contributions).getInstance(KubernetesRuntime.class);
    }

    /**
     * The injector of {@link #create}, for a caller that needs more of the runtime than its start and stop
     * ({@code muster bench --embedded} binds through the runtime's binder alone). Creating it creates the
     * runtime's singletons, so a bad configuration is found here.
     *
     * @throws ConfigException when the configuration does not parse with the installed plugins
     */
    static Injector injector(KubernetesClient client, Clock clock, RuntimeOptions options, List<Module> contributions) {
        ImmutableList<Module> modules = ImmutableList.<Module>builder()
                .add(new EngineModule())
                .add(new AbstractModule() {
                    @Override
                    protected void configure() {
                        bind(Clock.class).toInstance(clock);
                    }
                })
                .add(new KubernetesModule(client))
                .add(new RuntimeModule(options))
                .addAll(contributions)
                .build();
        try {
            Injector injector = Guice.createInjector(modules);
            injector.getInstance(KubernetesRuntime.class);
            return injector;
        } catch (ProvisionException e) {
            if (e.getCause() instanceof ConfigException config) {
                throw config;
            }
            throw e;
        }
    }
}
