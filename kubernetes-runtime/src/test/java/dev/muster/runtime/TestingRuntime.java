package dev.muster.runtime;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.runtime.leader.LeaseConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/** The production wiring of {@link RuntimeModule}, as {@code muster run} assembles it, with a test's clock and modules. */
public final class TestingRuntime {
    private TestingRuntime() {}

    public static RuntimeOptions options(Set<String> schedulerNames, Optional<LeaseConfig> lease) {
        return new RuntimeOptions(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text(), schedulerNames, Duration.ofMillis(100), lease);
    }

    public static KubernetesRuntime create(KubernetesClient client, RuntimeOptions options, Clock clock, Module... extra) {
        return injector(client, options, clock, extra).getInstance(KubernetesRuntime.class);
    }

    /** The injector of {@link #create}, for a test that looks at what it binds. */
    public static Injector injector(KubernetesClient client, RuntimeOptions options, Clock clock, Module... extra) {
        return Guice.createInjector(new EngineModule(), new KubernetesModule(client), new RuntimeModule(options), new AbstractModule() {
            @Override
            protected void configure() {
                bind(Clock.class).toInstance(clock);
                for (Module module : extra) {
                    install(module);
                }
            }
        });
    }
}
