package dev.muster.engine.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The built-in configurations: Muster's default, used when none is given (see {@code
 * default-scheduler.conf}), and Volcano's Helm default, by the name {@value #VOLCANO_NAME}, for users who
 * want Volcano's decisions whatever Muster's default becomes. Today the two are the same file: issue 18's
 * proposed default ({@code examples/simulate/muster-issue18.conf}) measured slower, so the default did
 * not change; when it does, {@link #volcanoText} keeps reading today's file.
 */
public final class DefaultSchedulerConfig {
    public static final String SOURCE = "default-scheduler.conf (built in)";
    public static final String VOLCANO_SOURCE = "Volcano's Helm default (built in)";
    /** How users name the built-in {@code volcano.conf} where a configuration file is expected. */
    public static final String VOLCANO_NAME = "builtin:volcano";

    private DefaultSchedulerConfig() {}

    public static String text() {
        return resource("default-scheduler.conf");
    }

    public static String volcanoText() {
        return resource("default-scheduler.conf");
    }

    private static String resource(String name) {
        try (InputStream stream = DefaultSchedulerConfig.class.getResourceAsStream(name)) {
            if (stream == null) {
                throw new IllegalStateException("BUG: " + name + " is missing from the classpath");
            }
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
