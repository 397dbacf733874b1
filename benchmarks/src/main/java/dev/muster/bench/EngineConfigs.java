package dev.muster.bench;

import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.SessionConfig;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The engine configurations the benchmarks time, loaded by the real loader with every built-in plugin. */
final class EngineConfigs {
    private static final Pattern ACTIONS_LINE = Pattern.compile("^actions:.*$", Pattern.MULTILINE);

    private EngineConfigs() {}

    static SchedulerConfigLoader loader() {
        return Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
    }

    /** The built-in configuration with its actions reduced to {@code allocate}, as {@code muster bench} times it. */
    static SessionConfig defaultAllocateOnly() {
        return allocateOnly(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text());
    }

    /** {@value DefaultSchedulerConfig#VOLCANO_NAME} with its actions reduced to {@code allocate}. */
    static SessionConfig volcanoAllocateOnly() {
        return allocateOnly(DefaultSchedulerConfig.VOLCANO_SOURCE, DefaultSchedulerConfig.volcanoText());
    }

    private static SessionConfig allocateOnly(String source, String text) {
        Matcher actions = ACTIONS_LINE.matcher(text);
        if (!actions.find()) {
            throw new IllegalStateException(source + " has no 'actions:' line");
        }
        String allocateOnly = actions.replaceFirst("actions: \"allocate\"");
        return loader().parse(source + " (allocate only)", allocateOnly);
    }
}
