package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.config.ConfigException;
import dev.muster.engine.config.ConfigProblem;
import dev.muster.engine.config.DefaultSchedulerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A scheduler configuration as read, before parsing: the runtime parses it with the loader of its
 * own injector, which knows the plugins of every module installed there.
 *
 * @param source the file, or the built-in configuration's name, for error messages
 */
record SchedulerConfigText(String source, String text) {
    SchedulerConfigText {
        requireNonNull(source, "source is null");
        requireNonNull(text, "text is null");
    }

    /** Muster's built-in configuration. */
    static SchedulerConfigText builtIn() {
        return new SchedulerConfigText(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text());
    }

    /**
     * The file's text, or the built-in configuration without one; {@code builtin:volcano} names
     * Volcano's Helm default, whatever Muster's default is.
     *
     * @throws ConfigException naming the file when it cannot be read
     */
    static SchedulerConfigText read(Optional<Path> file) {
        if (file.isEmpty()) {
            return builtIn();
        }
        if (file.get().toString().equals(DefaultSchedulerConfig.VOLCANO_NAME)) {
            return new SchedulerConfigText(DefaultSchedulerConfig.VOLCANO_SOURCE, DefaultSchedulerConfig.volcanoText());
        }
        try {
            return new SchedulerConfigText(file.get().toString(), Files.readString(file.get(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ConfigException(file.get().toString(), List.of(new ConfigProblem("", "cannot read: " + e.getMessage())));
        }
    }
}
