package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.ConfigException;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.ActionFactory;
import dev.muster.engine.framework.ConfiguredPlugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The production injector, as {@code main} builds it. */
class WiringTest {
    private final Injector injector = Guice.createInjector(new EngineModule(), new CliModule());
    private final Map<String, PluginFactory<?>> plugins = injector.getInstance(Key.get(new TypeLiteral<Map<String, PluginFactory<?>>>() {}));
    private final Map<String, ActionFactory<?>> actions = injector.getInstance(Key.get(new TypeLiteral<Map<String, ActionFactory<?>>>() {}));
    private final SchedulerConfigLoader loader = injector.getInstance(SchedulerConfigLoader.class);

    @Test
    void everyFactoryIsRegisteredUnderItsOwnName() {
        plugins.forEach((name, factory) -> assertThat(factory.name()).isEqualTo(name));
        actions.forEach((name, factory) -> assertThat(factory.name()).isEqualTo(name));
        assertThat(actions).containsOnlyKeys("enqueue", "allocate", "backfill", "preempt", "reclaim");
        assertThat(plugins).containsOnlyKeys("gang", "priority", "conformance", "drf", "proportion", "capacity", "predicates",
                "nodeorder", "binpack", "overcommit", "sla", "resource-strategy-fit", "network-topology-aware", "dag", "placeable",
                "shortestfirst", "executorreservation", "task-topology");
    }

    @Test
    void theLoaderIsOneSingletonThatKnowsTheRegisteredFactories() {
        assertThat(injector.getInstance(SchedulerConfigLoader.class)).isSameAs(loader);

        plugins.forEach((name, factory) -> {
            SessionConfig config = loader.parse("wiring", "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: " + name + "\n");

            ConfiguredPlugin plugin = config.tiers().get(0).get(0);
            assertThat(plugin.factory()).as(name).isSameAs(factory);
            assertThat(plugin.args()).as(name).isEqualTo(factory.defaultArgs());
        });
    }

    @Test
    void everyRegisteredActionIsLoadedByItsName() {
        actions.keySet().forEach(name -> {
            SessionConfig config = loader.parse("wiring", "actions: \"" + name + "\"\ntiers:\n- plugins:\n  - name: gang\n");

            assertThat(config.actions()).extracting(action -> action.name()).as(name).containsExactly(name);
        });
    }

    @Test
    void aNameNoModuleRegisteredIsRefused() {
        assertThatThrownBy(() -> loader.parse("wiring", "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: gnag\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown plugin 'gnag'")
                .hasMessageContaining("did you mean 'gang'");
    }

    @Test
    void theBuiltInConfigurationLoadsAndPlacesAGang() {
        SessionConfig config = loader.parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text());

        SessionResult result = Session.run(SyntheticCluster.build(2, 4, 4, 1), config, Clock.fixed(Instant.parse("2026-01-01T01:00:00Z"), ZoneOffset.UTC));

        assertThat(config.actions()).extracting(action -> action.name()).containsExactly("enqueue", "allocate", "backfill");
        assertThat(config.tiers()).extracting(tier -> tier.stream().map(ConfiguredPlugin::name).toList()).containsExactly(
                List.of("priority", "gang"),
                List.of("placeable", "shortestfirst", "dag", "drf", "predicates", "proportion", "conformance", "nodeorder", "binpack"));
        assertThat(result.binds()).hasSize(4);
        assertThat(result.jobs().values()).allSatisfy(outcome -> assertThat(outcome.ready()).isTrue());
    }

    @Test
    void deploysConfigMapCarriesTheBuiltInDefault() throws IOException {
        // the scheduler.conf of deploy/'s ConfigMap, as a cluster's muster run reads it with --config
        String text;
        try (MappingIterator<JsonNode> documents = new ObjectMapper(new YAMLFactory()).readerFor(JsonNode.class)
                .readValues(Path.of("..", "deploy", "scheduler.yaml").toFile())) {
            text = documents.readAll().stream().filter(document -> document.path("kind").asText().equals("ConfigMap"))
                    .map(document -> document.path("data").path("scheduler.conf").asText()).findFirst().orElseThrow();
        }
        SessionConfig deployed = loader.parse("deploy/scheduler.yaml", text);
        SessionConfig builtIn = loader.parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text());

        assertThat(deployed.actions()).extracting(action -> action.name())
                .isEqualTo(builtIn.actions().stream().map(action -> action.name()).toList());
        assertThat(deployed.tiers()).extracting(tier -> tier.stream().map(ConfiguredPlugin::name).toList())
                .isEqualTo(builtIn.tiers().stream().map(tier -> tier.stream().map(ConfiguredPlugin::name).toList()).toList());
    }

    @Test
    void theBuiltInVolcanoConfigurationIsVolcanosHelmDefault() {
        SessionConfig config = loader.parse(DefaultSchedulerConfig.VOLCANO_SOURCE, DefaultSchedulerConfig.volcanoText());

        assertThat(config.actions()).extracting(action -> action.name()).containsExactly("enqueue", "allocate", "backfill");
        assertThat(config.tiers()).extracting(tier -> tier.stream().map(ConfiguredPlugin::name).toList()).containsExactly(
                List.of("priority", "gang", "conformance"),
                List.of("overcommit", "drf", "predicates", "proportion", "nodeorder", "binpack"));
    }
}
