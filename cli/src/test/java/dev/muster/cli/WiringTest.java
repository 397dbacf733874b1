package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.ActionFactory;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.SessionConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The production injector, as {@code main} builds it. */
class WiringTest {
    private final Injector injector = Guice.createInjector(new EngineModule(), new CliModule());

    @Test
    void everyFactoryIsRegisteredUnderItsOwnName() {
        Map<String, PluginFactory<?>> plugins = injector.getInstance(Key.get(new TypeLiteral<Map<String, PluginFactory<?>>>() {}));
        Map<String, ActionFactory<?>> actions = injector.getInstance(Key.get(new TypeLiteral<Map<String, ActionFactory<?>>>() {}));

        plugins.forEach((name, factory) -> assertThat(factory.name()).isEqualTo(name));
        actions.forEach((name, factory) -> assertThat(factory.name()).isEqualTo(name));
        assertThat(actions).containsKeys("enqueue", "allocate", "backfill", "preempt", "reclaim");
        assertThat(plugins).containsKeys("gang", "priority", "conformance", "drf", "proportion", "capacity", "predicates",
                "nodeorder", "binpack", "overcommit", "sla", "resource-strategy-fit", "dag");
    }

    @Test
    void theBuiltInConfigurationLoads() {
        SessionConfig config = injector.getInstance(SchedulerConfigLoader.class)
                .parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text());

        assertThat(config.actions()).extracting(action -> action.name()).containsExactly("enqueue", "allocate", "backfill");
        assertThat(config.tiers()).hasSize(2);
    }

    @Test
    void everyPluginsDefaultArgumentsAreOfItsArgumentsType() {
        Map<String, PluginFactory<?>> plugins = injector.getInstance(Key.get(new TypeLiteral<Map<String, PluginFactory<?>>>() {}));

        plugins.values().forEach(factory -> assertThat(factory.argsType()).isInstanceOf(Class.class)
                .satisfies(type -> assertThat(type.isInstance(factory.defaultArgs())).isTrue()));
    }
}
