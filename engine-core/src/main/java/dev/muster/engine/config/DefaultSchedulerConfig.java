package dev.muster.engine.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The configuration used when none is given: Volcano's Helm default (see {@code default-scheduler.conf}). */
public final class DefaultSchedulerConfig {
    public static final String SOURCE = "default-scheduler.conf (built in)";

    private DefaultSchedulerConfig() {}

    public static String text() {
        try (InputStream stream = DefaultSchedulerConfig.class.getResourceAsStream("default-scheduler.conf")) {
            if (stream == null) {
                throw new IllegalStateException("BUG: default-scheduler.conf is missing from the classpath");
            }
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
